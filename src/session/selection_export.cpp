#include "pcv/session/selection_export.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "pcv/core/error.hpp"
#include "pcv/core/text_case.hpp"
#include "pcv/io/point_records.hpp"
#include "pcv/session/copc_conversion.hpp"
#include "pcv/session/record_sink.hpp"
#include "pcv/session/scene_sources.hpp"

namespace pcv {

bool namesDatasetFolderOrVpc(const std::string& input) {
  return std::filesystem::is_directory(input) || endsWithIgnoringCase(input, ".vpc");
}

std::vector<std::string> filesOfInputs(const std::vector<std::string>& inputs) {
  std::vector<std::string> files;
  for (const std::string& input : inputs) {
    if (!namesDatasetFolderOrVpc(input)) {
      files.push_back(input);
      continue;
    }
    const ScenePlan plan = planScene(SceneSources{.files = {input}}, StreamLimits{.inCore = true});
    files.insert(files.end(), plan.files.begin(), plan.files.end());
  }
  return files;
}

bool clipKeeps(const ClipSettings& clip, const glm::dvec3& p) {
  if (!clip.active()) return true;
  bool inside = true;
  if (clip.box) {
    const ClipBox& b = *clip.box;
    inside = p.x >= b.min.x && p.x <= b.max.x && p.y >= b.min.y && p.y <= b.max.y &&
             p.z >= b.min.z && p.z <= b.max.z;
  }
  if (clip.slab && inside) {
    const ClipSlab& s = *clip.slab;
    const glm::dvec3 n = glm::normalize(s.normal);
    inside = std::fabs(glm::dot(n, p - s.centre)) <= s.thickness / 2.0;
  }
  if (clip.hasRegion() && inside == (clip.keep == ClipKeep::Outside)) return false;
  return !clip.polygon || clip.polygon->selects(p);
}

RecordPredicate selectionPredicate(const PointSelection& selection) {
  validateClipSettings(selection.clip);
  // The regions (a copy: the predicate outlives the selection), then the filters.
  auto regions = std::make_shared<const PointSelection>(PointSelection{
      .clip = selection.clip, .brush = selection.brush, .profileLine = selection.profileLine});
  if (!selection.filter.active()) {
    return [regions](const RecordPoint& p) { return selectionKeepsPosition(*regions, p.world); };
  }
  RecordPredicate filter = filterPredicate(selection.filter);
  return [regions, filter](const RecordPoint& p) {
    return selectionKeepsPosition(*regions, p.world) && filter(p);
  };
}

bool selectionKeepsPosition(const PointSelection& selection, const glm::dvec3& world) {
  return clipKeeps(selection.clip, world) &&
         (!selection.brush || selection.brush->selects(world)) &&
         (!selection.profileLine || selection.profileLine->selects(world));
}

std::optional<Box3d> selectionRegion(const ClipSettings& clip) {
  if (!clip.box || clip.keep != ClipKeep::Inside) return std::nullopt;
  Box3d box;
  box.extend(clip.box->min);
  box.extend(clip.box->max);
  return box;
}

RegionTest selectionRegionTest(const ClipSettings& clip) {
  const std::optional<Box3d> box = selectionRegion(clip);
  const std::optional<PolygonSelection> polygon =
      clip.polygon && clip.polygon->keepInside() ? clip.polygon : std::nullopt;
  // A slab kept inside bounds what may be kept too: a box whose corners all lie beyond one of
  // its faces holds none of its points.
  const std::optional<ClipSlab> slab =
      clip.slab && clip.keep == ClipKeep::Inside ? clip.slab : std::nullopt;
  if (!box && !polygon && !slab) return {};
  return [box, polygon, slab](const Box3d& bounds) {
    if (box && !(bounds.min.x <= box->max.x && bounds.max.x >= box->min.x &&
                 bounds.min.y <= box->max.y && bounds.max.y >= box->min.y &&
                 bounds.min.z <= box->max.z && bounds.max.z >= box->min.z)) {
      return false;
    }
    if (slab) {
      const glm::dvec3 n = glm::normalize(slab->normal);
      // The box's extent along the normal, from its centre, against half the thickness.
      const glm::dvec3 centre = 0.5 * (bounds.min + bounds.max);
      const glm::dvec3 half = 0.5 * (bounds.max - bounds.min);
      const double reach =
          std::fabs(n.x) * half.x + std::fabs(n.y) * half.y + std::fabs(n.z) * half.z;
      if (std::fabs(glm::dot(n, centre - slab->centre)) > reach + slab->thickness / 2.0) {
        return false;
      }
    }
    return !polygon || polygon->mayMeet(bounds);
  };
}

RegionTest selectionRegionTest(const PointSelection& selection) {
  RegionTest clip = selectionRegionTest(selection.clip);
  if (!selection.brush && !selection.profileLine) return clip;
  const std::optional<BrushSelection> brush = selection.brush;
  const std::optional<ProfileLineSelection> line = selection.profileLine;
  return [clip, brush, line](const Box3d& bounds) {
    return (!clip || clip(bounds)) && (!brush || brush->mayMeet(bounds)) &&
           (!line || line->mayMeet(bounds));
  };
}

RegionTest anyRegionTest(std::vector<RegionTest> regions) {
  if (std::any_of(regions.begin(), regions.end(), [](const RegionTest& r) { return !r; })) {
    return [](const Box3d&) { return true; };
  }
  return [regions = std::move(regions)](const Box3d& box) {
    return std::any_of(regions.begin(), regions.end(),
                       [&](const RegionTest& region) { return region(box); });
  };
}

PointRecordSource selectedFileRecords(const std::vector<std::string>& inputs, int pointFormat,
                                      const PointSelection& selection, bool exactCount,
                                      std::atomic<uint64_t>* pointsRead) {
  if (inputs.empty()) throw InputError("no input to export from");
  const std::vector<std::string> files = filesOfInputs(inputs);
  const RegionTest region = selectionRegionTest(selection);
  const RecordPredicate keep = selectionPredicate(selection);
  const PointRecordSource all = pointFileRecords(files, pointFormat, region);
  return [all, keep, exactCount, pointsRead] {
    return selectRecords(all, keep, exactCount, pointsRead);
  };
}

ExportSummary exportSelection(const std::vector<std::string>& inputs, const std::string& output,
                              const PointSelection& selection, CopcWriteProgress* progress,
                              const OutputRules& rules) {
  CopcWriteProgress ownProgress;
  CopcWriteProgress& shown = progress ? *progress : ownProgress;
  // Folders and VPCs expanded once (their headers are read to list the tiles): the tiles are
  // the inputs the output may not be, and what is read.
  const std::vector<std::string> files = filesOfInputs(inputs);
  RecordSinkOptions options{.output = rules};
  options.output.inputs.assign(files.begin(), files.end());
  const CloudFileKind kind = checkRecordOutput(output, options);
  // COPC needs the count first: the selection is counted in a first pass, which the COPC
  // writer's own progress shows.
  const bool copc = kind == CloudFileKind::Copc;
  const RecordSinkSummary written = writePointRecords(
      selectedFileRecords(files, -1, selection, copc, copc ? nullptr : &shown.pointsRead), output,
      options, &shown);
  return {.points = written.points,
          .pointFormat = written.pointFormat,
          .format = cloudFileKindName(written.kind)};
}

}  // namespace pcv
