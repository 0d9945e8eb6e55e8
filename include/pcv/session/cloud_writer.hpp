/// @brief Points a front end holds (arrays given to the Python module, a merged scene) written
/// as LAS, LAZ or COPC, the kind chosen by the file name, through the same record streams and
/// writers as `pcv convert`.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>

#include "pcv/core/point_cloud.hpp"

namespace pcv {

enum class CloudFileKind { Las, Laz, Copc };

/// "*.copc.laz": COPC; "*.laz": LAZ; "*.las": LAS (any case). Throws InputError otherwise.
CloudFileKind cloudFileKindFor(const std::filesystem::path& path);

struct CloudWriteSummary {
  CloudFileKind kind = CloudFileKind::Las;
  uint64_t points = 0;  ///< points written
  int pointFormat = 0;  ///< LAS point format of the records (lasPointFormatFor; COPC: 6-8)
};

/// Writes `cloud` to `path`: positions on a grid as fine as the floats allow over its extent,
/// colours (point format 2, COPC 7) when it has them, and its intensity, classification and
/// return_number attributes. Written under a temporary name and renamed once complete, so a
/// failure leaves no partial file. Throws InputError (an unknown kind, a bad path), Error.
CloudWriteSummary writePointCloud(std::shared_ptr<const PointCloud> cloud,
                                  const std::filesystem::path& path);

}  // namespace pcv
