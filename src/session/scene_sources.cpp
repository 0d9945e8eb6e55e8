// The one decision of how sources open: cylinders, in core, streamed, or streamed from a cache.
#include "pcv/session/scene_sources.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "pcv/core/error.hpp"
#include "pcv/core/host_memory.hpp"
#include "pcv/io/copc_hierarchy.hpp"
#include "pcv/io/point_cloud_reader.hpp"
#include "pcv/demo/cylinders.hpp"
#include "pcv/session/copc_cache.hpp"
#include "pcv/stream/tile_set.hpp"

namespace pcv {
namespace {

bool lasOrLaz(const std::string& file) {
  try {
    return detectPointFileFormat(file) == PointFileFormat::Las;
  } catch (const InputError&) {
    return false;
  }
}

/// Whether every one of `files` is a LAS or LAZ file that exists (a COPC cache can hold them).
bool cacheable(const std::vector<std::string>& files) {
  return std::all_of(files.begin(), files.end(), [](const std::string& file) {
    std::error_code error;
    return std::filesystem::is_regular_file(file, error) && lasOrLaz(file);
  });
}

/// Whether every one of `files` is named as a tile (LAS, LAZ or COPC): the dataset's check by
/// name, so thousands of files are not opened twice.
bool namedAsTiles(const std::vector<std::string>& files) {
  return std::all_of(files.begin(), files.end(), hasTileExtension);
}

}  // namespace

RendererOptions ScenePlan::rendererOptions() const {
  return kind == SceneKind::Streamed ? RendererOptions{.storage = PointStorage::Compact}
                                     : RendererOptions{};
}

bool streamsAsCopc(const std::vector<std::string>& files, const StreamLimits& limits) {
  return !limits.inCore && files.size() == 1 && isCopcFile(files[0]);
}

ScenePlan planScene(const SceneSources& sources, const StreamLimits& limits) {
  applyRemoteLimits(limits);
  ScenePlan plan;
  const bool folder = namesDataset(sources.files);
  // A VPC's items that describe their tiles (count, box, CRS, a COPC name) make the index those
  // tiles open from: their headers are read when the stream first wants them.
  TileIndex index;
  std::vector<std::string> overviews;  // each VPC parsed once: its tiles and overviews
  plan.files =
      folder ? expandTilePaths(sources.files, &plan.warnings, &index, &overviews) : sources.files;
  plan.clouds = sources.clouds;
  plan.demo = sources.demo;
  if (!sources.files.empty()) {
    plan.label = sources.files.size() == 1 ? sources.files[0]
                                           : sources.files[0] + " and " +
                                                 std::to_string(sources.files.size() - 1) + " more";
  }
  if (sources.produced) {
    if (!plan.files.empty() || !sources.clouds.empty()) {
      throw InputError(
          "points in GPU memory are drawn alone: they cannot be merged with files "
          "or with points in host memory");
    }
    plan.kind = SceneKind::Produced;
    plan.produced = sources.produced;
    return plan;
  }
  if (plan.files.empty() && sources.clouds.empty()) return plan;  // the cylinders
  if (!sources.clouds.empty()) {
    plan.kind = SceneKind::InCore;  // memory cannot stream: everything is merged with it
    return plan;
  }
  if (streamsAsCopc(plan.files, limits)) {
    plan.kind = SceneKind::Streamed;
    return plan;
  }
  plan.kind = SceneKind::InCore;
  if (limits.inCore || (plan.files.size() == 1 && isCopcFile(plan.files[0]))) return plan;
  const uint64_t limit = limits.memoryBytes > 0 ? limits.memoryBytes : availableHostMemoryBytes();
  if (folder || (plan.files.size() > 1 && namedAsTiles(plan.files))) {
    auto tiles = std::make_shared<TileSet>(
        describeTiles(plan.files, limits.skipBadTiles ? &plan.warnings : nullptr, &index));
    tiles->overviews = std::move(overviews);
    tiles->skipBadTiles = limits.skipBadTiles;
    const bool anyCopc = tiles->count(TileFormat::Copc) > 0;
    if (!folder && !anyCopc) {
      const std::optional<uint64_t> needed = inCoreBytes(plan.files);
      if (!needed || *needed <= limit) return plan;  // LAS/LAZ files that fit: merged as before
      plan.inCoreBytes = *needed;
      plan.limitBytes = limit;
      plan.limitGiven = limits.memoryBytes > 0;
    }
    requireOneCoordinateSystem(*tiles);
    plan.kind = SceneKind::Streamed;
    plan.tiles = std::move(tiles);
    return plan;
  }
  if (!cacheable(plan.files)) return plan;  // other formats: their readers refuse what does not fit
  const std::optional<uint64_t> needed = inCoreBytes(plan.files);
  if (!needed || *needed <= limit) return plan;
  const std::filesystem::path cached = copcCachePath(plan.files, copcCacheDirectory());
  std::error_code error;
  plan.kind = SceneKind::Streamed;
  plan.cachedFrom = plan.files;
  plan.files = {cached.string()};
  plan.cacheMissing = !std::filesystem::is_regular_file(cached, error);
  plan.inCoreBytes = *needed;
  plan.limitBytes = limit;
  plan.limitGiven = limits.memoryBytes > 0;
  return plan;
}

Box3d demoCylindersBounds(const DemoCylinders& demo) {
  Box3d box;
  for (const Cylinder& c : makeCylinderSet(demo.seed).cylinders) {
    for (int axis = 0; axis < 3; ++axis) {
      const double along = std::abs(double(c.axisZ[axis])) * c.halfHeight;
      const double across =
          c.radius * std::sqrt(std::max(0.0, 1.0 - double(c.axisZ[axis]) * double(c.axisZ[axis])));
      box.min[axis] = std::min(box.min[axis], c.center[axis] - along - across);
      box.max[axis] = std::max(box.max[axis], c.center[axis] + along + across);
    }
  }
  return box;
}

}  // namespace pcv
