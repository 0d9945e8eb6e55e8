/// @brief The 64-bit framebuffer word that makes one atomicMin both the depth test and the
/// colour choice.
#pragma once

#include <cstdint>

#include "pcv/core/float_math.hpp"
#include "pcv/core/host_device.hpp"

namespace pcv {

// word = | float bits of positive view depth (32) | payload: point index (32) |
// Positive IEEE floats order like uint32, so the smallest word holds the closest point and, for
// equal depths, the lowest index: the result does not depend on the order threads run in.

/// A pixel no point has reached: larger than any word with a finite depth.
constexpr uint64_t kEmptyPixel = ~uint64_t(0);

PCV_HOST_DEVICE PCV_FORCE_INLINE uint64_t packDepthWord(float positiveDepth, uint32_t payload) {
  return (uint64_t(floatBits(positiveDepth)) << 32) | payload;
}
PCV_HOST_DEVICE PCV_FORCE_INLINE float depthOfWord(uint64_t word) {
  return bitsToFloat(uint32_t(word >> 32));
}
PCV_HOST_DEVICE PCV_FORCE_INLINE uint32_t payloadOfWord(uint64_t word) {
  return uint32_t(word);
}

}  // namespace pcv
