/// @brief Counter-based random numbers: a value depends only on (seed, index, stream), so any
/// thread on the CPU or the GPU draws the same number for the same point, in any order.
#pragma once

#include <cstdint>

#include "pcv/core/host_device.hpp"

namespace pcv {

/// SplitMix64's finalizer: a bijective mix with full avalanche.
PCV_HOST_DEVICE PCV_FORCE_INLINE uint64_t mix64(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  x ^= x >> 31;
  return x;
}

/// 32 random bits for draw `stream` of item `index`. Streams separate the several numbers one
/// item needs (angle, height, colour jitter ...); at most 16 streams per item.
PCV_HOST_DEVICE PCV_FORCE_INLINE uint32_t randomBits(uint64_t seed, uint64_t index,
                                                     uint32_t stream) {
  const uint64_t counter = (index << 4) | (stream & 15u);
  return static_cast<uint32_t>(mix64(mix64(seed + 0x9e3779b97f4a7c15ull) ^ counter) >> 32);
}

/// Uniform float in [0, 1) with 24 random bits: every value is exact in float.
PCV_HOST_DEVICE PCV_FORCE_INLINE float uniform01(uint64_t seed, uint64_t index, uint32_t stream) {
  return static_cast<float>(randomBits(seed, index, stream) >> 8) * (1.0f / 16777216.0f);
}

}  // namespace pcv
