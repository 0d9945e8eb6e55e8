/// @brief Where each value of a point lives in a block of binary records (LAS, binary PLY, PCD,
/// decompressed LAZ chunks) and what it means: the field layout a reader builds from its header
/// and hands to the record decoder.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "pcv/core/point_cloud.hpp"
#include "scalar_types.hpp"

namespace pcv::io {

enum class FieldRole : uint8_t {
  X,
  Y,
  Z,  ///< coordinates
  Red,
  Green,
  Blue,
  Alpha,
  PackedRgb,  ///< 0x??RRGGBB in a U4 or in the bits of an F4 (PCD)
  Attribute,  ///< kept as PointCloud::attributes[attribute]
  Ignore,
};

/// One value of point i lives at base + i * stride (bytes from the start of the data block).
/// Record-major data (PLY, LAS, PCD binary) has stride = record size; column-major data (PCD
/// binary_compressed) has stride = field size.
struct FieldLayout {
  ScalarType type = ScalarType::Float32;
  FieldRole role = FieldRole::Ignore;
  uint64_t base = 0;    ///< bytes
  uint64_t stride = 0;  ///< bytes
  bool bigEndian = false;
  double scale = 1.0;  ///< world = raw * scale + offset (LAS); 1 and 0 elsewhere
  double offset = 0.0;
  uint32_t bitShift = 0;  ///< integer fields: (raw >> bitShift) & bitMask when bitMask != 0
  uint32_t bitMask = 0;
  bool hasNoData = false;  ///< raw values equal to noData decode as NaN (LAS extra bytes)
  double noData = 0.0;
  int attribute = -1;  ///< index into RecordLayout::attributeNames for Attribute fields
};

/// The fields of a record block and the names of its attributes.
struct RecordLayout {
  std::vector<FieldLayout> fields;
  std::vector<std::string> attributeNames;
  /// Per attribute name, the type its values keep; missing entries are Float32.
  std::vector<AttributeType> attributeTypes;
  uint64_t bytesPerPoint = 0;  ///< for progress only
};

/// `count` points whose fields lie in [data, data + the caller-checked size).
struct RecordSource {
  const uint8_t* data = nullptr;
  uint64_t count = 0;  ///< points, not bytes
  RecordLayout layout;
};

}  // namespace pcv::io
