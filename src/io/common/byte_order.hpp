/// @brief The one way pcv's readers and writers load and store numbers in file bytes: unaligned,
/// little-endian as every format stores them (PLY and PCD may also be big-endian). Host and
/// device code both use it (the LAZ codec's per-point code compiles for the GPU).
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

#include "pcv/core/host_device.hpp"

namespace pcv::io {

// memcpy of the bytes is the little-endian value only on a little-endian machine.
static_assert(std::endian::native == std::endian::little, "pcv reads files on little-endian hosts");

/// The little-endian T at `p` (no alignment needed).
template <typename T>
PCV_HOST_DEVICE inline T loadLe(const uint8_t* p) {
  T value;
  std::memcpy(&value, p, sizeof(T));
  return value;
}

/// Stores `value` little-endian at `p` (no alignment needed).
template <typename T>
PCV_HOST_DEVICE inline void storeLe(uint8_t* p, T value) {
  std::memcpy(p, &value, sizeof(T));
}

/// The T at `p` in the given byte order (PLY's binary_big_endian, PCD from big-endian hosts).
template <typename T>
inline T loadInOrder(const uint8_t* p, bool bigEndian) {
  if (!bigEndian) return loadLe<T>(p);
  uint8_t swapped[sizeof(T)];
  for (size_t i = 0; i < sizeof(T); ++i) swapped[i] = p[sizeof(T) - 1 - i];
  return loadLe<T>(swapped);
}

}  // namespace pcv::io
