/// @brief Little-endian loads and stores at any alignment, for the item codecs that read and
/// write LAS point records byte by byte.
#pragma once

#include <cstdint>
#include <cstring>

#include "pcv/core/host_device.hpp"

namespace pcv::laz {

template <typename T>
PCV_HOST_DEVICE inline T loadLe(const uint8_t* p) {
  T value;
  std::memcpy(&value, p, sizeof(T));
  return value;
}

template <typename T>
PCV_HOST_DEVICE inline void storeLe(uint8_t* p, T value) {
  std::memcpy(p, &value, sizeof(T));
}

/// n wrapped into a byte: LAZ adds byte differences modulo 256.
PCV_HOST_DEVICE inline uint8_t wrapByte(int32_t n) {
  return uint8_t(n & 0xFF);
}

PCV_HOST_DEVICE inline uint32_t clampByte(int32_t n) {
  return n <= 0 ? 0u : (n >= 255 ? 255u : uint32_t(n));
}

}  // namespace pcv::laz
