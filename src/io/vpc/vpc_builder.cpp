// The tiles of a VPC from their headers, read in parallel as pdal_wrench build_vpc does: the
// points are never decoded, so thousands of tiles take seconds.
#include "pcv/core/error.hpp"
#include "pcv/core/parallel.hpp"
#include "pcv/io/point_cloud_reader.hpp"
#include "pcv/io/virtual_point_cloud.hpp"

namespace pcv {

VpcBuildSummary describeVpcTiles(std::span<const std::filesystem::path> files) {
  if (files.empty()) throw InputError("no input files to describe as VPC tiles");
  VpcBuildSummary summary;
  summary.tiles.resize(files.size());
  parallelForEachDynamic(files.size(), [&](size_t i) {
    const FileSummary header = describePointFile(files[i]);
    if (!header.pointCountKnown || header.worldBounds.empty()) {
      throw InputError(files[i].string() + ": the " + header.format +
                       " header declares no point count and bounds, which a VPC item needs "
                       "(LAS, LAZ and COPC files declare both)");
    }
    summary.tiles[i] = VpcTileDescription{.file = files[i],
                                          .pointCount = header.pointCount,
                                          .nativeBounds = header.worldBounds,
                                          .crs = header.crs};
  });
  summary.crs = summary.tiles.front().crs;
  for (const VpcTileDescription& tile : summary.tiles) {
    if (!tile.crs.sameAs(summary.crs)) {
      throw InputError(
          "the tiles' coordinate systems differ: " + summary.tiles.front().file.string() +
          " is in " + summary.crs.label() + ", " + tile.file.string() + " in " + tile.crs.label() +
          " (a VPC holds tiles of one CRS)");
    }
    summary.totalPoints += tile.pointCount;
    summary.bounds.extend(tile.nativeBounds);
  }
  summary.geographic = GeographicTransform(summary.crs).box(summary.bounds).has_value();
  return summary;
}

VpcBuildSummary buildVirtualPointCloud(const std::filesystem::path& path,
                                       std::span<const std::filesystem::path> files,
                                       const OutputRules& rules) {
  // Checked before any header is read: a missing folder or an existing file ends here.
  OutputRules withTiles = rules;
  withTiles.inputs.insert(withTiles.inputs.end(), files.begin(), files.end());
  checkOutput(path, withTiles);
  VpcBuildSummary summary = describeVpcTiles(files);
  writeVirtualPointCloud(path, summary.tiles, rules);
  return summary;
}

}  // namespace pcv
