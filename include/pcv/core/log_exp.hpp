/// @brief log2 and exp2 from small polynomials and exact bit manipulation, so eye-dome lighting
/// gives the same bits on the CPU and the GPU (libm and CUDA's logf/expf differ in the last
/// bits). Relative accuracy ~1e-5, plenty for shading.
#pragma once

#include <math.h>

#include <cstdint>

#include "pcv/core/float_math.hpp"
#include "pcv/core/host_device.hpp"

namespace pcv {

/// log2(x) for finite x > 0 (x <= 0 gives -126). The exponent comes from the bits; the mantissa
/// m in [1, 2) goes through log2(m) = 2/ln2 * atanh(t), t = (m - 1) / (m + 1) in [0, 1/3].
PCV_HOST_DEVICE PCV_FORCE_INLINE float fastLog2(float x) {
  if (!(x > 0.0f)) return -126.0f;
  const uint32_t bits = floatBits(x);
  const int exponent = int((bits >> 23) & 0xffu) - 127;
  const float m = bitsToFloat((bits & 0x007fffffu) | 0x3f800000u);
  const float t = (m - 1.0f) / (m + 1.0f);
  const float t2 = t * t;
  const float series = t * (1.0f + t2 * (1.0f / 3.0f + t2 * (1.0f / 5.0f + t2 * (1.0f / 7.0f))));
  return float(exponent) + series * 2.88539008178f;  // 2 / ln 2
}

/// 2^y for y <= 0 (y > 0 is treated as 0); 0 below -126. 2^y = 2^k * 2^f with k = floor(y)
/// put into the exponent bits and 2^f, f in [0, 1), from its Taylor series. fastExp2(0) == 1.
PCV_HOST_DEVICE PCV_FORCE_INLINE float fastExp2(float y) {
  if (!(y < 0.0f)) return 1.0f;
  if (y < -126.0f) return 0.0f;
  const float k = floorf(y);
  const float f = (y - k) * 0.69314718056f;  // in nats
  const float poly =
      1.0f +
      f * (1.0f + f * (0.5f + f * (1.0f / 6.0f + f * (1.0f / 24.0f +
                                                      f * (1.0f / 120.0f + f * (1.0f / 720.0f))))));
  const uint32_t scaleBits = uint32_t(int(k) + 127) << 23;
  return poly * bitsToFloat(scaleBits);
}

}  // namespace pcv
