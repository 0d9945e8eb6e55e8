#include "pcv/session/cloud_edits.hpp"

#include <algorithm>
#include <atomic>
#include <optional>

#include "pcv/core/parallel.hpp"
#include "pcv/core/point_filter.hpp"
#include "pcv/process/point_classes.hpp"
#include "pcv/session/selection_export.hpp"

namespace pcv {
namespace {

constexpr const char* kClassification = "classification";
constexpr const char* kWithheld = "withheld";

ScalarAttribute& attributeOrZeros(PointCloud& cloud, const char* name) {
  for (ScalarAttribute& attribute : cloud.attributes) {
    if (attribute.name == name) return attribute;
  }
  ScalarAttribute made{.name = name, .type = AttributeType::UInt8};
  made.resize(cloud.size(), 0.0);
  cloud.attributes.push_back(std::move(made));
  return cloud.attributes.back();
}

/// Classifies the points `selects` holds together (world positions in double from the cloud's
/// offsets) and merges the classes found into `classes`; returns how many were selected.
template <typename Selects>
uint64_t classifySelected(const PointCloud& cloud, const Selects& selects,
                          const ClassifySettings& settings, ScalarAttribute& classes) {
  std::vector<uint8_t> chosen(cloud.size(), 0);
  parallelFor(
      cloud.size(),
      [&](uint64_t begin, uint64_t end) {
        for (uint64_t i = begin; i < end; ++i) chosen[i] = selects(i) ? 1 : 0;
      },
      1 << 14);
  std::vector<uint64_t> indices;
  std::vector<glm::dvec3> positions;
  for (uint64_t i = 0; i < cloud.size(); ++i) {
    if (!chosen[i]) continue;
    const Point& p = cloud.points[i];
    indices.push_back(i);
    positions.push_back(cloud.origin + glm::dvec3(p.x, p.y, p.z));
  }
  if (indices.empty()) return 0;
  const std::vector<uint8_t> found = classifyPoints(positions, settings);
  for (size_t k = 0; k < indices.size(); ++k) {
    const double previous = classes.value(indices[k]);
    const uint8_t before = previous >= 0.0 && previous <= 255.0 ? uint8_t(previous) : 0;
    classes.setValue(indices[k], double(mergedClass(before, found[k], settings)));
  }
  return indices.size();
}

}  // namespace

std::vector<std::string> attributesForEdits(std::span<const PointEdit> edits) {
  std::vector<std::string> names = {kClassification, kWithheld};
  for (const PointEdit& edit : edits) {
    for (const std::string& name : attributesNeeded(edit.selection.filter)) {
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    }
  }
  return names;
}

std::vector<uint64_t> applyEditsToCloud(PointCloud& cloud, std::span<const PointEdit> edits) {
  std::vector<uint64_t> selected(edits.size(), 0);
  if (edits.empty() || cloud.size() == 0) return selected;
  // Both made before any filter looks its attributes up (a push_back would move them).
  attributeOrZeros(cloud, kClassification);
  attributeOrZeros(cloud, kWithheld);
  ScalarAttribute& classes = attributeOrZeros(cloud, kClassification);
  ScalarAttribute& withheld = attributeOrZeros(cloud, kWithheld);
  const glm::dvec3 origin = cloud.origin;
  for (size_t e = 0; e < edits.size(); ++e) {
    const PointEdit& edit = edits[e];
    // Each edit sees what the ones before it left: the filter reads the classes as changed.
    const CloudFilter filter(edit.selection.filter, cloud);
    const bool filtered = edit.selection.filter.active();
    const auto selects = [&](uint64_t i) {
      const Point& p = cloud.points[i];
      const glm::dvec3 world = origin + glm::dvec3(p.x, p.y, p.z);
      return selectionKeepsPosition(edit.selection, world) && (!filtered || filter.keeps(i));
    };
    if (edit.action == EditAction::Classify) {
      selected[e] = classifySelected(cloud, selects, edit.classify, classes);
      continue;
    }
    std::atomic<uint64_t> count{0};
    parallelFor(
        cloud.size(),
        [&](uint64_t begin, uint64_t end) {
          uint64_t mine = 0;
          for (uint64_t i = begin; i < end; ++i) {
            if (!selects(i)) continue;
            ++mine;
            switch (edit.action) {
              case EditAction::SetClass:
                classes.setValue(i, double(edit.classification));
                break;
              case EditAction::Delete:
                withheld.setValue(i, 1.0);
                break;
              case EditAction::Restore:
                withheld.setValue(i, 0.0);
                break;
              case EditAction::Classify:
                break;  // above
            }
          }
          count += mine;
        },
        1 << 14);
    selected[e] = count;
  }
  return selected;
}

void highlightSelection(const PointCloud& cloud, const PointSelection& selection,
                        std::span<Point> colored) {
  std::optional<CloudFilter> filter;
  try {
    if (selection.filter.active()) filter.emplace(selection.filter, cloud);
  } catch (const InputError&) {
    return;  // the edit itself says why when it is applied
  }
  parallelFor(
      cloud.size(),
      [&](uint64_t begin, uint64_t end) {
        for (uint64_t i = begin; i < end; ++i) {
          const Point& p = cloud.points[i];
          const glm::dvec3 world = cloud.origin + glm::dvec3(p.x, p.y, p.z);
          if (selectionKeepsPosition(selection, world) && (!filter || filter->keeps(i))) {
            colored[i].rgba = kSelectionHighlightRgba;
          }
        }
      },
      1 << 14);
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
