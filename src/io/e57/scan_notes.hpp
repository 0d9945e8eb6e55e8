/// @brief The lines `pcv info` prints about an E57 file's scans (name, point count, fields,
/// pose, stated bounds), made from the XML section alone so they never cost a decode.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "file_header.hpp"
#include "xml_section.hpp"

namespace pcv::io::e57 {

/// "1.0, 2 scans, 310402 points" (or "1.0, scan 1 of 2, ..." when one is picked).
std::string describeFile(const FileHeader& header, const XmlSection& section,
                         std::optional<uint32_t> pickedScan);

/// A few lines per scan; every scan is listed, the picked one marked.
std::vector<std::string> describeScans(const XmlSection& section,
                                       std::optional<uint32_t> pickedScan);

}  // namespace pcv::io::e57
