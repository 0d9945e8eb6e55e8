/// @brief pcv's reader of E57 files (ASTM E2807): the header, the XML section's data3D scans,
/// their compressed vectors decoded on all cores, each scan through its pose, merged into one
/// cloud (or one scan picked by ReadOptions::scan). Independent of the other formats' reader
/// scaffolding: it takes the mapped bytes and returns the cloud with its description.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "pcv/core/point_cloud.hpp"
#include "pcv/io/point_cloud_reader.hpp"

namespace pcv::io::e57 {

struct E57Request {
  std::string fileName;                  ///< for messages
  const ReadOptions* options = nullptr;  ///< null reads everything
  LoadProgress* progress = nullptr;      ///< may be null
};

struct E57Result {
  PointCloud cloud;     ///< the valid records; NaN coordinates the file holds are the caller's
  std::string details;  ///< "1.0, 2 scans (155201 points)"
  std::vector<std::string> notes;     ///< one scan per few lines, for `pcv info`
  std::vector<std::string> warnings;  ///< things that did not stop the load
};

/// Reads the file's scans. Throws InputError (malformed, no scans, a scan index out of range),
/// LoadCancelled.
E57Result readE57(std::span<const uint8_t> bytes, const E57Request& request);

/// The description of readE57 (details and notes) from the header and XML section alone: no
/// binary section is read. `cloud` stays empty.
E57Result describeE57(std::span<const uint8_t> bytes, const E57Request& request);

}  // namespace pcv::io::e57
