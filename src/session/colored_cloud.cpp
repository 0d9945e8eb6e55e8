#include "pcv/session/colored_cloud.hpp"

#include "pcv/core/error.hpp"
#include "pcv/io/point_cloud_reader.hpp"
#include "pcv/session/cloud_edits.hpp"

namespace pcv {

void ColoredCloud::merge(PointCloud&& cloud, bool replace) {
  const uint64_t before = replace ? 0 : cloud_.size();
  if (replace) {
    cloud_ = std::move(cloud);
    readClasses_.clear();
    readWithheld_.clear();
  } else {
    appendPointCloud(cloud_, cloud);
  }
  if (keepsReadValues_) {
    keepReadValues(before);  // the new points' values as read, then the edits on them too
    reapplyEdits();
  }
}

void ColoredCloud::clear() {
  hide();
  cloud_ = {};
  edits_.clear();
  keepsReadValues_ = false;
  readClasses_.clear();
  readWithheld_.clear();
  shownIndex_.reset();
  shownAttributes_.clear();
}

void ColoredCloud::keepReadValues(uint64_t from) {
  const ScalarAttribute* classes = cloud_.findAttribute("classification");
  const ScalarAttribute* withheld = cloud_.findAttribute("withheld");
  readClasses_.resize(from);
  readWithheld_.resize(from);
  for (uint64_t i = from; i < cloud_.size(); ++i) {
    readClasses_.push_back(classes ? float(classes->value(i)) : 0.0f);
    readWithheld_.push_back(withheld ? float(withheld->value(i)) : 0.0f);
  }
}

std::vector<uint64_t> ColoredCloud::setEdits(std::vector<PointEdit> edits) {
  if (!keepsReadValues_) {
    if (edits.empty()) return {};
    keepReadValues(0);
    keepsReadValues_ = true;
  }
  edits_ = std::move(edits);
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
    keepReadValues(0);
    keepsReadValues_ = true;
  }
  const std::vector<PointEdit> one = {edit};
  // A filter over an attribute the points lack throws before any point changes.
  const std::vector<uint64_t> selected = applyEditsToCloud(cloud_, one);
  edits_.push_back(std::move(edit));
  return selected[0];
}

void ColoredCloud::reapplyEdits(std::vector<uint64_t>* selected) {
  // Made where missing by the first edit, then written back as read.
  ensureEditAttributes(cloud_);
  for (ScalarAttribute& attribute : cloud_.attributes) {
    const std::vector<float>* read = attribute.name == "classification" ? &readClasses_
                                     : attribute.name == "withheld"     ? &readWithheld_
                                                                        : nullptr;
    if (!read) continue;
    for (uint64_t i = 0; i < cloud_.size(); ++i) attribute.setValue(i, (*read)[i]);
  }
  std::vector<uint64_t> counts = applyEditsToCloud(cloud_, edits_);
  if (selected) *selected = std::move(counts);
}

void ColoredCloud::commitEdits() {
  edits_.clear();
  keepsReadValues_ = false;
  readClasses_.clear();
  readWithheld_.clear();
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
  if (highlight_) highlightSelection(cloud_, *highlight_, {colored.data(), colored.size()});
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
    coloredPoints(cloud_, *shownColoring_, colored);
  } catch (const InputError&) {
    coloredPoints(cloud_, ColoringOptions{}, colored);  // the fallback show() took
  }
  if (highlight_) highlightSelection(cloud_, *highlight_, {colored.data(), colored.size()});
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
  // Points with nothing a filter reads (a PLY of positions) get no arrays: filters draw none.
  if (data.classification.empty() && data.returnNumber.empty() && !data.hasRangeValues()) return;
  renderer_.setFilterData(*set_, data);
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
