/// @brief Decodes runs of one E57 scan's records into pcv points: coordinates (cartesian, or
/// spherical converted to cartesian) through the scan's pose in double precision, stored as
/// float offsets from the cloud's origin; invalid-state records marked (dropped later); colours
/// scaled by their limits to 8 bits; intensity scaled by its limits to 0..1; return, row,
/// column and time values as attributes. Runs are independent, so threads decode them at once.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "compressed_vector.hpp"
#include "paged_file.hpp"
#include "pcv/core/point.hpp"
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

/// Records flagged invalid are written with this NaN (its payload marks it) as x, y and z, so
/// the reader can drop them after the parallel decode while NaN coordinates the file itself
/// holds are still counted as such.
inline constexpr uint32_t kInvalidRecordBits = 0x7fc0e570u;
inline bool isInvalidRecord(const Point& point) {
  return std::bit_cast<uint32_t>(point.x) == kInvalidRecordBits;
}

/// What to decode, from ReadOptions.
struct DecodeChoices {
  bool colors = true;                              ///< decode colorRed/Green/Blue
  std::array<bool, kAttributeCount> attributes{};  ///< which attributes are wanted
};

/// Where a run of one scan's records goes: arrays indexed by record number within the scan.
struct ScanOutput {
  Point* points = nullptr;
  /// Per attribute the cloud carries, its values for this scan's records; null when the cloud
  /// does not carry it. Attributes the scan lacks are written as NaN.
  std::array<float*, kAttributeCount> attributes{};
};

class ScanDecoder {
 public:
  /// Throws InputError naming the scan when it has neither cartesianX/Y/Z nor
  /// sphericalRange/Azimuth/Elevation.
  ScanDecoder(const PagedFile& file, const ScanDescription& scan, CompressedVectorLayout layout,
              const DecodeChoices& choices, uint32_t scanIndex);

  const ScanDescription& scan() const { return scan_; }
  uint64_t recordCount() const { return scan_.recordCount; }
  uint64_t sectionBytes() const { return layout_.sectionBytes; }
  bool hasColor() const { return color_[0] >= 0; }
  bool hasAttribute(Attribute attribute) const;
  bool spherical() const { return spherical_; }

  /// The world position of the first valid record with finite coordinates, if any.
  std::optional<glm::dvec3> firstValidPosition() const;

  /// Decodes records [first, first + count) of the scan into `out`; returns how many of them
  /// were flagged invalid (and marked with kInvalidRecordBits).
  uint64_t decode(uint64_t first, uint64_t count, const glm::dvec3& origin,
                  const ScanOutput& out) const;

 private:
  struct Columns;
  void decodeField(int field, uint64_t first, size_t count, Columns& columns, double* values) const;
  void decodeBlock(uint64_t first, size_t count, bool positionsOnly, Columns& columns) const;
  glm::dvec3 localPosition(const Columns& columns, size_t i) const;

  const PagedFile& file_;
  const ScanDescription& scan_;
  CompressedVectorLayout layout_;
  uint32_t scanIndex_;
  bool spherical_ = false;
  glm::dmat3 rotation_{1.0};
  glm::dvec3 translation_{0.0};
  // Prototype field indices by role, -1 when absent or not wanted.
  std::array<int, 3> position_{-1, -1, -1};  ///< x y z, or range azimuth elevation
  int invalidState_ = -1;
  std::array<int, 3> color_{-1, -1, -1};
  int colorInvalid_ = -1;
  std::array<int, kAttributeCount> attribute_{};
  std::array<int, kAttributeCount> attributeInvalid_{};
  std::array<double, 3> colorMinimum_{}, colorScale_{};   ///< byte = (value - min) * scale
  double intensityMinimum_ = 0.0, intensityScale_ = 1.0;  ///< 0..1 = (value - min) * scale
  std::vector<int> slots_;  ///< prototype field -> column of a decoded block, -1 when unused
  int slotCount_ = 0;
  int positionSlots_ = 0;  ///< columns [0, positionSlots_) hold coordinates and invalid state
};

}  // namespace pcv::io::e57
