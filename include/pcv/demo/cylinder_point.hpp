/// @brief Point i of the demo cylinders, written once for the CPU and the CUDA generators.
#pragma once

#include <cstdint>

#include "pcv/core/float_math.hpp"
#include "pcv/core/host_device.hpp"
#include "pcv/core/point.hpp"
#include "pcv/core/random.hpp"
#include "pcv/demo/cylinders.hpp"

namespace pcv {

/// Random streams of one point (see core/random.hpp).
enum CylinderPointStream : uint32_t {
  kAngle = 0,
  kHeight = 1,
  kJitterR = 2,
  kJitterG = 3,
  kJitterB = 4
};

PCV_HOST_DEVICE PCV_FORCE_INLINE uint32_t jitteredChannel(float base, uint64_t seed, uint64_t index,
                                                          uint32_t stream) {
  const float jitter = (2.0f * uniform01(seed, index, stream) - 1.0f) * 0.1f;  // +-0.1
  // floor(v + 0.5) rounds half up, the same on both compilers.
  return static_cast<uint32_t>(255.0f * clampf(base + jitter, 0.0f, 1.0f) + 0.5f);
}

PCV_HOST_DEVICE inline Point cylinderPoint(const Cylinder* cylinders, uint32_t cylinderCount,
                                           uint64_t seed, uint64_t index, uint64_t pointCount) {
  const Cylinder& c = cylinders[(index * cylinderCount) / pointCount];
  float lx, ly;
  sinCosTurns(uniform01(seed, index, kAngle), ly, lx);
  const float v = 2.0f * uniform01(seed, index, kHeight) - 1.0f;
  Point p;
  p.x = c.center[0] + c.radius * (c.axisX[0] * lx + c.axisY[0] * ly) +
        c.halfHeight * (c.axisZ[0] * v);
  p.y = c.center[1] + c.radius * (c.axisX[1] * lx + c.axisY[1] * ly) +
        c.halfHeight * (c.axisZ[1] * v);
  p.z = c.center[2] + c.radius * (c.axisX[2] * lx + c.axisY[2] * ly) +
        c.halfHeight * (c.axisZ[2] * v);
  p.rgba = packRgba(jitteredChannel(c.color[0], seed, index, kJitterR),
                    jitteredChannel(c.color[1], seed, index, kJitterG),
                    jitteredChannel(c.color[2], seed, index, kJitterB));
  return p;
}

}  // namespace pcv
