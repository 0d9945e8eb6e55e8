/// @brief Part of a COPC file read without the rest, as PDAL's readers.copc reads with `bounds`
/// and `resolution`: only the octree nodes whose cubes meet the bounds, down to the level whose
/// point spacing reaches the resolution, are decoded (in parallel), and their points outside the
/// bounds dropped. For scripts that want one area, or an overview, of a file too large to read.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>

#include "pcv/core/bounds.hpp"
#include "pcv/core/point_cloud.hpp"
#include "pcv/io/point_cloud_reader.hpp"

namespace pcv {

struct CopcRegion {
  std::optional<Box3d> bounds;  ///< world coordinates; empty: the whole file
  /// Finest point spacing wanted (world units): levels below the first whose spacing is at most
  /// this are skipped. 0: every level.
  double resolution = 0.0;
};

struct CopcRegionRead {
  PointCloud cloud;         ///< offsets from the file's octree origin
  uint64_t nodesRead = 0;   ///< nodes decoded
  uint64_t nodesTotal = 0;  ///< nodes holding points in the file
};

/// Reads `region` of the COPC file `path`, decoding what `options` asks for (attributes,
/// colours). Throws InputError for a file that is not COPC, a broken node, or a bad region.
CopcRegionRead readCopcRegion(const std::filesystem::path& path, const CopcRegion& region,
                              const ReadOptions& options = {});

}  // namespace pcv
