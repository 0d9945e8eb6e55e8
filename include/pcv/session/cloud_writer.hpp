/// @brief Points a front end holds (arrays given to the Python module, a merged scene) written
/// as LAS, LAZ or COPC, the kind chosen by the file name, through the record sink.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>

#include "pcv/core/point_cloud.hpp"
#include "pcv/session/record_sink.hpp"

namespace pcv {

struct CloudWriteSummary {
  CloudFileKind kind = CloudFileKind::Las;
  uint64_t points = 0;  ///< points written
  int pointFormat = 0;  ///< LAS point format of the records (lasPointFormatFor; COPC: 6-8)
};

/// Writes `cloud` to `path`: positions on a grid as fine as the floats allow over its extent,
/// colours (point format 2, COPC 7) when it has them, and its intensity, classification and
/// return_number attributes. Through writePointRecords: a failure leaves no partial file, and
/// `rules` say whether a file at `path` may be replaced. Throws InputError (an unknown kind, a
/// bad path), OutputExistsError, Error.
CloudWriteSummary writePointCloud(std::shared_ptr<const PointCloud> cloud,
                                  const std::filesystem::path& path,
                                  const OutputRules& rules = {.existing = ExistingOutput::Replace});

}  // namespace pcv
