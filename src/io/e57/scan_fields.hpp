/// @brief Which of a scan's prototype fields pcv reads and as what (the E57 field layout):
/// cartesian or spherical coordinates with their invalid state, colour channels with the
/// limits that bring them to 8 bits, intensity with the limits that bring it to 0..1, and the
/// other attributes. Fields it does not name (extensions, normals ...) are skipped.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "xml_section.hpp"

namespace pcv::io::e57 {

/// The scalar attributes an E57 cloud may carry, in the order they appear in the cloud.
enum class Attribute : uint8_t {
  Intensity,    ///< intensity scaled by its limits to 0..1
  ReturnIndex,  ///< returnIndex (0 = first return)
  ReturnCount,  ///< returnCount
  RowIndex,     ///< rowIndex
  ColumnIndex,  ///< columnIndex
  TimeStamp,    ///< timeStamp (seconds)
  ScanIndex,    ///< which data3D scan the point came from (only when several are read)
  Count
};
constexpr size_t kAttributeCount = size_t(Attribute::Count);

/// The attribute's name in PointCloud::attributes and `pcv info`.
const char* attributeName(Attribute attribute);

/// What to decode, from ReadOptions.
struct DecodeChoices {
  bool colors = true;                              ///< decode colorRed/Green/Blue
  std::array<bool, kAttributeCount> attributes{};  ///< which attributes are wanted
};

/// A linear map of decoded values: result = (value - minimum) * scale.
struct ValueScale {
  double minimum = 0.0;
  double scale = 1.0;
};

/// Prototype field indices by role; -1 where the scan has no such field or it is not wanted.
struct ScanFields {
  bool spherical = false;                   ///< position is range, azimuth, elevation
  std::array<int, 3> position{-1, -1, -1};  ///< x y z, or range azimuth elevation
  int invalidState = -1;                    ///< cartesianInvalidState / sphericalInvalidState
  std::array<int, 3> color{-1, -1, -1};
  int colorInvalid = -1;                   ///< isColorInvalid
  std::array<ValueScale, 3> colorScale{};  ///< to 0..255
  std::array<int, kAttributeCount> attribute{};
  std::array<int, kAttributeCount> attributeInvalid{};  ///< isIntensityInvalid ...
  ValueScale intensityScale{};                          ///< to 0..1

  bool hasColor() const { return color[0] >= 0; }
};

/// The fields of `scan` that `choices` asks for. Throws InputError naming `fileName` and the
/// scan when it has neither cartesianX/Y/Z nor sphericalRange/Azimuth/Elevation.
ScanFields chooseScanFields(const ScanDescription& scan, const DecodeChoices& choices,
                            const std::string& fileName);

}  // namespace pcv::io::e57
