/// @brief How file colour values become RGBA8: channels scaled by their type and maximum
/// (8-bit, 16-bit, 0..1 floats), packed 0x??RRGGBB words, saturation instead of undefined
/// conversions. Shared by the binary record decoder and the text row assembler.
#pragma once

#include <bit>
#include <cstdint>

#include "pcv/core/point.hpp"
#include "scalar_types.hpp"

namespace pcv::io {

/// The multiplier that brings colour values with this maximum to 0..255: 8-bit types and maxima
/// up to 255 as they are, floats up to 1 times 255, anything larger as 16-bit.
double colorScaleFor(ScalarType type, double maxValue);

/// value * scale rounded to 0..255; NaN is 0.
inline uint32_t channelByte(double value, double scale) {
  const double scaled = value * scale;
  if (!(scaled > 0.0)) return 0;
  if (scaled >= 255.0) return 255;
  return uint32_t(scaled + 0.5);
}

/// A packed-colour value as 32 bits: NaN is 0 and the rest saturates, because converting a
/// double outside 0 .. 2^32-1 (a malformed file's) to uint32_t is undefined.
inline uint32_t saturatedUint32(double value) {
  if (!(value > 0.0)) return 0;
  return value >= 4294967295.0 ? 0xffffffffu : uint32_t(value);
}

/// 0x??RRGGBB as opaque RGBA8.
inline uint32_t rgbFromPacked(uint32_t bits) {
  return packRgba((bits >> 16) & 0xffu, (bits >> 8) & 0xffu, bits & 0xffu);
}

/// The 32 bits of a packed colour stored as `type` (PCD keeps them in the bits of a float).
inline uint32_t packedColorBits(double value, ScalarType type) {
  return type == ScalarType::Float32 ? std::bit_cast<uint32_t>(float(value))
                                     : saturatedUint32(value);
}

}  // namespace pcv::io
