#include "pcv/session/cloud_edits.hpp"

#include <algorithm>

#include "pcv/core/parallel.hpp"
#include "pcv/core/point_filter.hpp"
#include "pcv/process/point_classes.hpp"
#include "pcv/session/classifier_choice.hpp"
#include "pcv/session/selection_export.hpp"

namespace pcv {
namespace {

constexpr const char* kClassification = "classification";
constexpr const char* kWithheld = "withheld";

ScalarAttribute& attributeOrZeros(PointCloud& cloud, const char* name) {
  for (ScalarAttribute& attribute : cloud.attributes) {
    if (attribute.name == name) return attribute;
  }
  // Filled on all cores: the first edit of a billion points waits for it.
  ScalarAttribute made{.name = name, .type = AttributeType::UInt8};
  made.resize(cloud.size());
  parallelFor(cloud.size(), [&](uint64_t begin, uint64_t end) {
    std::fill(made.values.begin() + begin, made.values.begin() + end, 0.0f);
  });
  cloud.attributes.push_back(std::move(made));
  return cloud.attributes.back();
}


/// Classifies the points `indices` together (world positions in double from the cloud's
/// offsets) and merges the classes found into `classes`.
void classifySelected(const PointCloud& cloud, const std::vector<uint64_t>& indices,
                      const ClassifySettings& settings, ScalarAttribute& classes) {
  if (indices.empty()) return;
  std::vector<glm::dvec3> positions(indices.size());
  for (size_t k = 0; k < indices.size(); ++k) {
    const Point& p = cloud.points[indices[k]];
    positions[k] = cloud.origin + glm::dvec3(p.x, p.y, p.z);
  }
  const std::vector<uint8_t> found = choosePointClassifier("auto")->classify(positions, settings);
  for (size_t k = 0; k < indices.size(); ++k) {
    const double previous = classes.value(indices[k]);
    const uint8_t before = previous >= 0.0 && previous <= 255.0 ? uint8_t(previous) : 0;
    classes.setValue(indices[k], double(mergedClass(before, found[k], settings)));
  }
}

}  // namespace

namespace {

bool changesWithheld(const PointEdit& edit) {
  return edit.action == EditAction::Delete || edit.action == EditAction::Restore;
}

/// The cloud's attribute `name`, or null.
ScalarAttribute* attributeOf(PointCloud& cloud, const char* name) {
  for (ScalarAttribute& attribute : cloud.attributes) {
    if (attribute.name == name) return &attribute;
  }
  return nullptr;
}

}  // namespace

void ensureEditAttributes(PointCloud& cloud, std::span<const PointEdit> edits) {
  attributeOrZeros(cloud, kClassification);
  if (std::any_of(edits.begin(), edits.end(), changesWithheld)) attributeOrZeros(cloud, kWithheld);
}

std::vector<std::string> attributesForEdits(std::span<const PointEdit> edits) {
  std::vector<std::string> names = {kClassification, kWithheld};
  for (const PointEdit& edit : edits) {
    for (const std::string& name : attributesNeeded(edit.selection.filter)) {
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    }
  }
  return names;
}

namespace {

/// One edit on the cloud (its edit attributes made), its selection given as `indices`. Where
/// `journal` or `undo` is given, the values the edit changes are read as it writes them (one
/// visit of each point's value), kept in `undo` and given to the journal.
void applyEdit(PointCloud& cloud, const PointEdit& edit, const std::vector<uint64_t>& indices,
               ReadValues* journal, EditUndo* undo) {
  // Made before (ensureEditAttributes): no push_back here moves an attribute held.
  ScalarAttribute& classes = *attributeOf(cloud, kClassification);
  const bool setsWithheld = changesWithheld(edit);
  ScalarAttribute& changed = setsWithheld ? *attributeOf(cloud, kWithheld) : classes;
  const bool keepBefore = journal || undo;
  std::vector<float> kept;
  std::vector<float>& before = undo ? undo->before : kept;
  if (undo) undo->withheld = setsWithheld;
  if (keepBefore) before.resize(indices.size());
  if (edit.action == EditAction::Classify) {
    if (keepBefore) {
      parallelFor(indices.size(), [&](uint64_t begin, uint64_t end) {
        for (uint64_t k = begin; k < end; ++k) before[k] = float(classes.value(indices[k]));
      });
    }
    classifySelected(cloud, indices, edit.classify, classes);
  } else {
    const double value = edit.action == EditAction::SetClass ? double(edit.classification)
                         : edit.action == EditAction::Delete ? 1.0
                                                             : 0.0;  // Restore
    parallelFor(
        indices.size(),
        [&](uint64_t begin, uint64_t end) {
          for (uint64_t k = begin; k < end; ++k) {
            if (keepBefore) before[k] = float(changed.value(indices[k]));
            changed.setValue(indices[k], value);
          }
        },
        1 << 14);
  }
  if (journal) (setsWithheld ? journal->withheld : journal->classes).keep(indices, before);
}

}  // namespace

CloudChunks cloudChunks(const PointCloud& cloud) {
  CloudChunks chunks;
  extendCloudChunks(cloud, chunks);
  return chunks;
}

void extendCloudChunks(const PointCloud& cloud, CloudChunks& chunks) {
  // The last run may have been partial: made again with the points after it.
  const size_t from = chunks.bounds.empty() ? 0 : chunks.bounds.size() - 1;
  chunks.bounds.resize((cloud.size() + kCloudChunkPoints - 1) / kCloudChunkPoints);
  if (from >= chunks.bounds.size()) return;
  parallelForEachDynamic(chunks.bounds.size() - from, [&](size_t k) {
    const size_t c = from + k;
    const uint64_t begin = c * kCloudChunkPoints;
    const uint64_t end = std::min(cloud.size(), begin + kCloudChunkPoints);
    // The offsets' bounds in float, then the world's from them: adding the origin rounds
    // monotonically, so the world positions' bounds are the origin plus the offsets' (a point
    // that is not a number changes neither), at a fraction of the cost of a double per point.
    Box3f local;
    for (uint64_t i = begin; i < end; ++i) {
      const Point& p = cloud.points[i];
      local.extend(glm::vec3(p.x, p.y, p.z));
    }
    Box3d box;
    for (int axis = 0; axis < 3; ++axis) {
      if (local.min[axis] > local.max[axis]) continue;  // no point gave this axis a value
      box.min[axis] = cloud.origin[axis] + double(local.min[axis]);
      box.max[axis] = cloud.origin[axis] + double(local.max[axis]);
    }
    chunks.bounds[c] = box;
  });
}

std::vector<uint64_t> applyEditsToCloud(PointCloud& cloud, std::span<const PointEdit> edits,
                                        const CloudChunks* chunks, ReadValues* journal) {
  std::vector<uint64_t> selected(edits.size(), 0);
  if (edits.empty() || cloud.size() == 0) return selected;
  // Made before any filter looks its attributes up (a push_back would move them).
  ensureEditAttributes(cloud, edits);
  for (size_t e = 0; e < edits.size(); ++e) {
    // Each edit sees what the ones before it left: the filter reads the classes as changed.
    const std::vector<uint64_t> indices = selectedIndices(cloud, edits[e].selection, chunks);
    selected[e] = indices.size();
    applyEdit(cloud, edits[e], indices, journal, nullptr);
  }
  return selected;
}

std::vector<uint64_t> applyEditToCloud(PointCloud& cloud, const PointEdit& edit,
                                       const CloudChunks* chunks, ReadValues* journal,
                                       EditUndo* undo) {
  if (cloud.size() == 0) return {};
  ensureEditAttributes(cloud, {&edit, 1});
  std::vector<uint64_t> indices = selectedIndices(cloud, edit.selection, chunks);
  applyEdit(cloud, edit, indices, journal, undo);
  return indices;
}

void undoEdit(PointCloud& cloud, std::span<const uint64_t> indices, const EditUndo& undo) {
  ScalarAttribute* changed = attributeOf(cloud, undo.withheld ? kWithheld : kClassification);
  if (!changed) return;
  parallelFor(indices.size(), [&](uint64_t begin, uint64_t end) {
    for (uint64_t k = begin; k < end; ++k) changed->setValue(indices[k], undo.before[k]);
  });
}

std::vector<uint64_t> selectedIndices(const PointCloud& cloud, const PointSelection& selection,
                                      const CloudChunks* chunks) {
  const CloudFilter filter(selection.filter, cloud);
  const bool filtered = selection.filter.active();
  const RegionTest region = chunks ? selectionRegionTest(selection) : RegionTest{};
  const uint64_t chunkCount = (cloud.size() + kCloudChunkPoints - 1) / kCloudChunkPoints;
  std::vector<std::vector<uint64_t>> found(chunkCount);
  parallelForEachDynamic(chunkCount, [&](size_t c) {
    if (region && !region(chunks->bounds[c])) return;
    const uint64_t begin = c * kCloudChunkPoints;
    const uint64_t end = std::min(cloud.size(), begin + kCloudChunkPoints);
    for (uint64_t i = begin; i < end; ++i) {
      const Point& p = cloud.points[i];
      const glm::dvec3 world = cloud.origin + glm::dvec3(p.x, p.y, p.z);
      if (selectionKeepsPosition(selection, world) && (!filtered || filter.keeps(i))) {
        found[c].push_back(i);
      }
    }
  });
  uint64_t total = 0;
  for (const std::vector<uint64_t>& part : found) total += part.size();
  std::vector<uint64_t> indices;
  indices.reserve(total);
  for (const std::vector<uint64_t>& part : found)
    indices.insert(indices.end(), part.begin(), part.end());
  return indices;
}

std::vector<bool> shownPoints(const PointCloud& cloud) {
  const ScalarAttribute* withheld = cloud.findAttribute(kWithheld);
  if (!withheld) return {};
  std::vector<bool> shown;
  for (uint64_t i = 0; i < cloud.size(); ++i) {
    // Set is 1; 0 and NaN (points merged from a file without the flag) are drawn.
    if (!(withheld->value(i) > 0.0)) continue;
    if (shown.empty()) shown.assign(cloud.size(), true);
    shown[i] = false;
  }
  return shown;
}

uint64_t dropWithheldPoints(PointCloud& cloud) {
  const std::vector<bool> shown = shownPoints(cloud);
  if (shown.empty()) return 0;
  uint64_t kept = 0;
  for (uint64_t i = 0; i < cloud.size(); ++i) {
    if (!shown[i]) continue;
    if (kept != i) {
      cloud.points[kept] = cloud.points[i];
      for (ScalarAttribute& attribute : cloud.attributes) attribute.moveValue(kept, i);
    }
    ++kept;
  }
  const uint64_t dropped = cloud.size() - kept;
  cloud.points.resize(kept);
  for (ScalarAttribute& attribute : cloud.attributes) attribute.resize(kept);
  return dropped;
}

}  // namespace pcv
