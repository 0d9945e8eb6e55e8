/// @brief What the item codecs that read and write LAS point records byte by byte share: the
/// byte-order helper's loads and stores, and byte arithmetic modulo 256.
#pragma once

#include <cstdint>

#include "common/byte_order.hpp"
#include "pcv/core/host_device.hpp"

namespace pcv::laz {

using io::loadLe;
using io::storeLe;

/// n wrapped into a byte: LAZ adds byte differences modulo 256.
PCV_HOST_DEVICE inline uint8_t wrapByte(int32_t n) {
  return uint8_t(n & 0xFF);
}

PCV_HOST_DEVICE inline uint32_t clampByte(int32_t n) {
  return n <= 0 ? 0u : (n >= 255 ? 255u : uint32_t(n));
}

}  // namespace pcv::laz
