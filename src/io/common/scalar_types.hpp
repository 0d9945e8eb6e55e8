/// @brief The scalar types point files store (PLY, PCD, LAS, E57 fields), with endian-aware
/// loads from unaligned bytes, so every reader converts values the same way.
#pragma once

#include <cstddef>
#include <cstdint>

#include "byte_order.hpp"
#include "pcv/core/attribute_type.hpp"

namespace pcv::io {

/// The field types files store: the same enum as the attributes a cloud keeps.
using ScalarType = AttributeType;

/// Bytes of one value.
size_t scalarSize(ScalarType type);
bool isFloatType(ScalarType type);
/// "int8" ... "float64", for messages and `pcv info`.
const char* scalarTypeName(ScalarType type);

/// The scalar at `p` (no alignment needed) converted to double.
double loadScalar(const uint8_t* p, ScalarType type, bool bigEndian);

}  // namespace pcv::io
