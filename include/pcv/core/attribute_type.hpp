/// @brief The scalar types of point fields (LAS, PLY, PCD, E57 fields and the attributes pcv
/// keeps of them), one enum for the readers that decode them and the clouds that hold them.
#pragma once

#include <cstdint>

namespace pcv {

/// The type of an attribute's values as the file stores them, so that they come back as they
/// came (classification as uint8, GPS time as float64) to Python and to writers.
enum class AttributeType : uint8_t {
  Float32,
  Float64,
  Int8,
  UInt8,
  Int16,
  UInt16,
  Int32,
  UInt32,
  Int64,
  UInt64,
};

/// Whether values of `type` need a double to be exact: a float holds integers up to 2^24, and
/// GPS time (3e8 seconds) would lose whole seconds.
constexpr bool isWideAttributeType(AttributeType type) {
  return type == AttributeType::Float64 || type == AttributeType::Int32 ||
         type == AttributeType::UInt32 || type == AttributeType::Int64 ||
         type == AttributeType::UInt64;
}

/// "uint8", "float64" ... (NumPy's names).
const char* attributeTypeName(AttributeType type);

}  // namespace pcv
