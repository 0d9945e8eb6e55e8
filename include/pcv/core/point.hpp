/// @brief The point record every backend reads: a float position relative to the cloud's origin
/// and an RGBA8 colour, 16 bytes so one aligned vector load fetches a point.
#pragma once

#include <cstdint>

#include "pcv/core/host_device.hpp"

namespace pcv {

struct alignas(16) Point {
  float x, y, z;  ///< metres (or file units) relative to PointCloud::origin
  uint32_t rgba;  ///< R in the low byte: bytes in memory are R, G, B, A
};
static_assert(sizeof(Point) == 16);

PCV_HOST_DEVICE constexpr uint32_t packRgba(uint32_t r, uint32_t g, uint32_t b, uint32_t a = 255) {
  return r | (g << 8) | (b << 16) | (a << 24);
}
PCV_HOST_DEVICE constexpr uint32_t redOf(uint32_t rgba) {
  return rgba & 0xffu;
}
PCV_HOST_DEVICE constexpr uint32_t greenOf(uint32_t rgba) {
  return (rgba >> 8) & 0xffu;
}
PCV_HOST_DEVICE constexpr uint32_t blueOf(uint32_t rgba) {
  return (rgba >> 16) & 0xffu;
}
PCV_HOST_DEVICE constexpr uint32_t alphaOf(uint32_t rgba) {
  return rgba >> 24;
}

constexpr uint32_t kOpaqueBlack = packRgba(0, 0, 0, 255);

}  // namespace pcv
