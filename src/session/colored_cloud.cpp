#include "pcv/session/colored_cloud.hpp"

#include <algorithm>
#include <iterator>

#include "pcv/core/error.hpp"
#include "pcv/core/parallel.hpp"
#include "pcv/io/point_cloud_reader.hpp"
#include "pcv/session/cloud_edits.hpp"

namespace pcv {

void ColoredCloud::merge(PointCloud&& cloud, bool replace) {
  if (replace) {
    cloud_ = std::move(cloud);
    readValues_.reset(cloud_.size());
    chunks_ = {};
  } else {
    appendPointCloud(cloud_, cloud);
    readValues_.grow(cloud_.size());
  }
  undos_.clear();  // the edits reach the new points too, which no record holds
  // Made as points come (the new ones only), so that the first selection does not wait for a
  // pass over every point read.
  extendCloudChunks(cloud_, chunks_);
  if (keepsReadValues_) reapplyEdits();      // the edits on the new points too
  if (highlight_) setHighlight(highlight_);  // the new points it holds too
}

void ColoredCloud::clear() {
  hide();
  cloud_ = {};
  chunks_ = {};
  highlight_.reset();
  highlighted_.clear();
  edits_.clear();
  undos_.clear();
  keepsReadValues_ = false;
  readValues_.clear();
  shownIndex_.reset();
  shownAttributes_.clear();
}

std::vector<uint64_t> ColoredCloud::setEdits(std::vector<PointEdit> edits) {
  if (!keepsReadValues_) {
    if (edits.empty()) return {};
    readValues_.reset(cloud_.size());
    keepsReadValues_ = true;
  }
  edits_ = std::move(edits);
  undos_.clear();
  std::vector<uint64_t> selected;
  try {
    reapplyEdits(&selected);
  } catch (const InputError&) {
    edits_.clear();
    reapplyEdits();
    throw;
  }
  return selected;
}

uint64_t ColoredCloud::pushEdit(PointEdit edit) {
  if (!keepsReadValues_) {
    readValues_.reset(cloud_.size());
    keepsReadValues_ = true;
  }
  // A filter over an attribute the points lack throws before any point changes.
  PushedEdit pushed;
  pushed.indices = applyEditToCloud(cloud_, edit, &chunks_, &readValues_, &pushed.undo);
  edits_.push_back(std::move(edit));
  undos_.push_back(std::move(pushed));
  // The oldest go past the budget; the newest stays, for lastEditPoints() and one undo.
  uint64_t bytes = 0;
  for (const PushedEdit& kept : undos_) bytes += kept.bytes();
  for (; undos_.size() > 1 && bytes > kUndoBudgetBytes; undos_.pop_front()) {
    bytes -= undos_.front().bytes();
  }
  return undos_.back().indices.size();
}

std::span<const uint64_t> ColoredCloud::lastEditPoints() const {
  if (undos_.empty()) return {};
  return undos_.back().indices;
}

bool ColoredCloud::undoLastEdit(std::vector<uint64_t>* changed) {
  if (undos_.empty() || edits_.empty()) return false;
  PushedEdit& last = undos_.back();
  undoEdit(cloud_, last.indices, last.undo);
  if (changed) *changed = std::move(last.indices);
  undos_.pop_back();
  edits_.pop_back();
  return true;
}

std::vector<uint64_t> ColoredCloud::setHighlight(std::optional<PointSelection> selection) {
  std::vector<uint64_t> now;
  if (selection) {
    try {
      now = selectedIndices(cloud_, *selection, &chunks_);
    } catch (const InputError&) {
      // A filter over an attribute the points lack highlights nothing: the edit says why.
    }
  }
  std::vector<uint64_t> changed;
  std::set_union(highlighted_.begin(), highlighted_.end(), now.begin(), now.end(),
                 std::back_inserter(changed));
  highlight_ = std::move(selection);
  highlighted_ = std::move(now);
  return changed;
}

bool ColoredCloud::showChangedPoints(std::span<const uint64_t> indices) {
  if (!set_ || !shownWithOrder_ || !shownUsed_) return false;
  // A ramp or a range over the classes themselves depends on all of them; a colouring that fell
  // back (classes asked for where the points had none) may not fall back once an edit made them.
  if (shownUsed_->attribute == "classification") return false;
  if (shownColoring_ && shownColoring_->mode == ColorMode::Classification &&
      shownUsed_->mode != ColorMode::Classification) {
    return false;
  }
  if (filterData_ && rangeAttribute_ == "classification") return false;
  const ScalarAttribute* classes = cloud_.findAttribute("classification");
  // Classes an edit gave points that had none reach the filters with the set's data made anew.
  if (filterData_ && classes && !setFilterHasClasses_) return false;
  if (indices.empty()) return true;
  // Where the set shows the points (withheld ones are not in it).
  std::vector<uint64_t> inCloud, inSet;
  inCloud.reserve(indices.size());
  inSet.reserve(indices.size());
  for (const uint64_t i : indices) {
    if (!shownIndex_) {
      inCloud.push_back(i), inSet.push_back(i);
      continue;
    }
    const auto at = std::lower_bound(shownIndex_->begin(), shownIndex_->end(), i);
    if (at == shownIndex_->end() || *at != i) continue;
    inCloud.push_back(i);
    inSet.push_back(uint64_t(at - shownIndex_->begin()));
  }
  std::vector<uint32_t> colors(inCloud.size());
  colorPointsAt(cloud_, *shownUsed_, inCloud, colors);
  std::vector<float> classValues(classes ? inCloud.size() : 0);
  for (size_t k = 0; k < inCloud.size(); ++k) {
    if (std::binary_search(highlighted_.begin(), highlighted_.end(), inCloud[k])) {
      colors[k] = kSelectionHighlightRgba;
    }
    if (classes) classValues[k] = float(classes->value(inCloud[k]));
  }
  if (!renderer_.changeClasses(
          *set_, inSet, colors,
          filterData_ ? std::span<const float>(classValues) : std::span<const float>())) {
    return false;
  }
  // The filter attributes kept for the shown points follow (a later applyFilterData reads them).
  if (shownIndex_ && classes) {
    for (ScalarAttribute& attribute : shownAttributes_) {
      if (attribute.name != "classification") continue;
      for (size_t k = 0; k < inCloud.size(); ++k) {
        attribute.setValue(inSet[k], classes->value(inCloud[k]));
      }
    }
  }
  return true;
}

void ColoredCloud::reapplyEdits(std::vector<uint64_t>* selected) {
  // Made where missing by the first edit; the points edits changed get their values as read.
  ensureEditAttributes(cloud_, edits_);
  ScalarAttribute *classes = nullptr, *withheld = nullptr;
  for (ScalarAttribute& attribute : cloud_.attributes) {
    if (attribute.name == "classification") classes = &attribute;
    if (attribute.name == "withheld") withheld = &attribute;
  }
  readValues_.classes.restore(*classes);
  if (withheld) readValues_.withheld.restore(*withheld);
  std::vector<uint64_t> counts = applyEditsToCloud(cloud_, edits_, &chunks_, &readValues_);
  if (selected) *selected = std::move(counts);
}

void ColoredCloud::commitEdits() {
  edits_.clear();
  undos_.clear();
  keepsReadValues_ = false;
  readValues_.clear();
}

std::optional<uint64_t> ColoredCloud::cloudIndex(uint64_t sourceIndex) const {
  if (!shownIndex_) {
    if (sourceIndex >= cloud_.size()) return std::nullopt;
    return sourceIndex;
  }
  if (sourceIndex >= shownIndex_->size()) return std::nullopt;
  return (*shownIndex_)[sourceIndex];
}

Coloring ColoredCloud::show(const ColoringOptions& coloring, const PointSetOptions& options,
                            std::string* fallbackError,
                            const std::optional<glm::dvec3>& shownOrigin) {
  UninitializedVector<Point> colored;
  Coloring used;
  try {
    used = coloredPoints(cloud_, coloring, colored);
  } catch (const InputError& error) {
    if (!fallbackError) throw;
    *fallbackError = error.what();
    used = coloredPoints(cloud_, ColoringOptions{}, colored);
  }
  for (const uint64_t i : highlighted_) colored[i].rgba = kSelectionHighlightRgba;
  // Withheld (deleted) points are not drawn: the set holds the others, and shownIndex_ finds a
  // picked one in the cloud.
  shownIndex_ = shownIndices();
  if (shownIndex_) {
    for (uint64_t k = 0; k < shownIndex_->size(); ++k) colored[k] = colored[(*shownIndex_)[k]];
    colored.resize(shownIndex_->size());
  }
  keepShownAttributes();
  if (shownOrigin && *shownOrigin != cloud_.origin) {
    // The shift is added in double and rounded once: near the other origin the offsets stay
    // small, so UTM-sized coordinates keep the precision of the cloud's own offsets.
    const glm::dvec3 shift = cloud_.origin - *shownOrigin;
    for (Point& p : colored) {
      p.x = float(double(p.x) + shift.x);
      p.y = float(double(p.y) + shift.y);
      p.z = float(double(p.z) + shift.z);
    }
  }
  hide();
  PointSetOptions setOptions = options;
  setOptions.hasColor = cloud_.hasColor;
  setOptions.keepSourceOrder = options.keepSourceOrder || filterData_;
  set_ = renderer_.addSet(colored, setOptions);
  shownColoring_ = coloring;
  shownUsed_ = used;
  shownOrigin_ = shownOrigin;
  shownWithOrder_ = setOptions.keepSourceOrder;
  if (filterData_) applyFilterData();
  return used;
}

std::optional<std::vector<uint64_t>> ColoredCloud::shownIndices() const {
  const std::vector<bool> shown = shownPoints(cloud_);
  if (shown.empty()) return std::nullopt;
  std::vector<uint64_t> indices;
  for (uint64_t i = 0; i < shown.size(); ++i) {
    if (shown[i]) indices.push_back(i);
  }
  return indices;
}

void ColoredCloud::keepShownAttributes() {
  shownAttributes_.clear();
  if (!shownIndex_) return;
  for (const ScalarAttribute& attribute : cloud_.attributes) {
    ScalarAttribute subset = attribute.emptyLike();
    for (const uint64_t i : *shownIndex_) subset.append(attribute, i, i + 1);
    shownAttributes_.push_back(std::move(subset));
  }
}

bool ColoredCloud::refreshInPlace() {
  if (!set_ || !shownWithOrder_ || !shownColoring_) return false;
  // The same points shown as when the set was laid out (none withheld then and now, or the
  // same ones).
  if (shownIndices() != shownIndex_) return false;
  const uint64_t setPoints = renderer_.pointCount(*set_);
  UninitializedVector<Point> colored;
  try {
    shownUsed_ = coloredPoints(cloud_, *shownColoring_, colored);
  } catch (const InputError&) {
    shownUsed_ = coloredPoints(cloud_, ColoringOptions{}, colored);  // the fallback show() took
  }
  for (const uint64_t i : highlighted_) colored[i].rgba = kSelectionHighlightRgba;
  std::vector<uint32_t> colors(setPoints);
  for (uint64_t k = 0; k < setPoints; ++k) {
    colors[k] = colored[shownIndex_ ? (*shownIndex_)[k] : k].rgba;
  }
  renderer_.setColors(*set_, colors);
  keepShownAttributes();
  if (filterData_) applyFilterData();
  return true;
}

void ColoredCloud::applyFilterData() {
  const FilterData data =
      filterDataOf(!shownIndex_ ? std::span<const ScalarAttribute>(cloud_.attributes)
                                : std::span<const ScalarAttribute>(shownAttributes_),
                   rangeAttribute_);
  setFilterHasClasses_ = false;
  // Points with nothing a filter reads (a PLY of positions) get no arrays: filters draw none.
  if (data.classification.empty() && data.returnNumber.empty() && !data.hasRangeValues()) return;
  renderer_.setFilterData(*set_, data);
  setFilterHasClasses_ = !data.classification.empty();
}

void ColoredCloud::setFilterData(bool keep, const std::string& rangeAttribute) {
  filterData_ = keep;
  rangeAttribute_ = rangeAttribute;
  if (!keep || !set_) return;
  if (shownWithOrder_) {
    applyFilterData();
    return;
  }
  // The set shown cannot place per-point values: lay it out again, keeping its order.
  std::string fallback;  // the colouring in effect already had its fallback decided
  show(*shownColoring_, {.keepSourceOrder = true}, &fallback, shownOrigin_);
}

void ColoredCloud::hide() {
  if (set_) renderer_.removeSet(*set_);
  set_.reset();
}

}  // namespace pcv
