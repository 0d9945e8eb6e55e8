/// @brief Decodes runs of one E57 scan's records into pcv points: coordinates (cartesian, or
/// spherical converted to cartesian) through the scan's pose in double precision, stored as
/// float offsets from the cloud's origin; invalid-state records marked (dropped afterwards);
/// colours and intensity scaled by their limits; return, row, column and time values as
/// attributes. Runs are independent, so threads decode many at once.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <vector>

#include <glm/glm.hpp>

#include "compressed_vector.hpp"
#include "paged_file.hpp"
#include "pcv/core/bounds.hpp"
#include "pcv/core/point.hpp"
#include "scan_fields.hpp"
#include "xml_section.hpp"

namespace pcv::io::e57 {

/// Records flagged invalid are written with this NaN (its payload marks it) as x, y and z, so
/// the reader can drop them after the parallel decode while NaN coordinates the file itself
/// holds are still counted as such.
inline constexpr uint32_t kInvalidRecordBits = 0x7fc0e570u;
inline bool isInvalidRecord(const Point& point) {
  return std::bit_cast<uint32_t>(point.x) == kInvalidRecordBits;
}

/// Where a run of one scan's records goes: arrays indexed by record number within the scan.
struct ScanOutput {
  Point* points = nullptr;
  /// Per attribute the cloud carries, its values for this scan's records; null when the cloud
  /// does not carry it. Attributes the scan lacks are written as NaN.
  std::array<float*, kAttributeCount> attributes{};
};

/// What decoding a run found besides its points.
struct RunResult {
  uint64_t invalidRecords = 0;  ///< flagged by the invalid state, marked kInvalidRecordBits
  Box3d worldBounds;            ///< of the valid, finite double positions
};

class ScanDecoder {
 public:
  ScanDecoder(const PagedFile& file, const ScanDescription& scan, CompressedVectorLayout layout,
              const ScanFields& fields, uint32_t scanIndex);

  uint64_t recordCount() const { return scan_.recordCount; }
  uint64_t sectionBytes() const { return layout_.sectionBytes; }
  bool hasColor() const { return fields_.hasColor(); }
  /// Whether the scan has the field behind `attribute` (ScanIndex: always).
  bool hasAttribute(Attribute attribute) const;

  /// The world position of the first valid record with finite coordinates, if any.
  std::optional<glm::dvec3> firstValidPosition() const;

  /// Decodes records [first, first + count) of the scan into `out`.
  RunResult decode(uint64_t first, uint64_t count, const glm::dvec3& origin,
                   const ScanOutput& out) const;

 private:
  struct Block;
  void assignColumns();
  void decodeField(int field, uint64_t first, size_t count, Block& block) const;
  void decodeBlock(uint64_t first, size_t count, bool positionsOnly, Block& block) const;
  glm::dvec3 worldPosition(const Block& block, size_t i) const;
  bool isValid(const Block& block, size_t i) const;
  uint64_t writePositions(const Block& block, size_t count, const glm::dvec3& origin, Point* points,
                          Box3d& bounds) const;
  void writeColors(const Block& block, size_t count, Point* points) const;
  void writeAttributes(const Block& block, size_t count, uint64_t first,
                       const ScanOutput& out) const;

  const PagedFile& file_;
  const ScanDescription& scan_;
  CompressedVectorLayout layout_;
  ScanFields fields_;
  uint32_t scanIndex_;
  glm::dmat3 rotation_{1.0};
  glm::dvec3 translation_{0.0};
  std::vector<int> columns_;  ///< prototype field -> column of a decoded block, -1 when unused
  int columnCount_ = 0;
  int positionColumns_ = 0;  ///< columns [0, positionColumns_) hold coordinates and state
};

}  // namespace pcv::io::e57
