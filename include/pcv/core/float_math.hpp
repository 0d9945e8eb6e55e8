/// @brief Float helpers that give the same bits on the CPU and on the GPU (no libm calls).
#pragma once

#include <cstdint>
#include <cstring>

#include "pcv/core/host_device.hpp"

namespace pcv {

PCV_HOST_DEVICE PCV_FORCE_INLINE uint32_t floatBits(float value) {
#if defined(__CUDA_ARCH__)
  return __float_as_uint(value);
#else
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
#endif
}

PCV_HOST_DEVICE PCV_FORCE_INLINE float bitsToFloat(uint32_t bits) {
#if defined(__CUDA_ARCH__)
  return __uint_as_float(bits);
#else
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
#endif
}

/// False for NaN and +-infinity (all exponent bits set); the same test on host and device.
PCV_HOST_DEVICE PCV_FORCE_INLINE bool isFiniteFloat(float value) {
  return (floatBits(value) & 0x7f800000u) != 0x7f800000u;
}

/// a * b + c with one rounding, on both sides: the GPU's FFMA, and on the host std::fmaf, which
/// is one instruction where the caller is compiled for FMA (see PCV_CPU_FMA_CLONES) and a correct,
/// slower library call elsewhere.
PCV_HOST_DEVICE PCV_FORCE_INLINE float fusedMultiplyAdd(float a, float b, float c) {
#if defined(__CUDA_ARCH__)
  return __fmaf_rn(a, b, c);
#else
  return __builtin_fmaf(a, b, c);
#endif
}

/// 1 / w rounded to nearest, exactly as IEEE division rounds it, for 2^-100 <= w <= 2^100 (the
/// range ViewTransform keeps view distances in). The GPU takes the hardware estimate and one
/// Newton step, the fast path of its own division, without the exponent check and slow-path call
/// that division carries for extreme values: six instructions fewer per point in the raster loop,
/// and fewer registers held across the call. tests/raster/reciprocal_test.cpp checks every float
/// of the range on the GPU.
PCV_HOST_DEVICE PCV_FORCE_INLINE float reciprocalInViewRange(float w) {
#if defined(__CUDA_ARCH__)
  float estimate;
  asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(estimate) : "f"(w));
  const float error = __fmaf_rn(w, estimate, -1.0f);
  return __fmaf_rn(estimate, -error, estimate);
#else
  return 1.0f / w;
#endif
}

/// q as a float, exactly, for q < 2^23. The GPU builds the float from its bits: integer-to-float
/// conversion runs at a quarter of the FMA rate there.
PCV_HOST_DEVICE PCV_FORCE_INLINE float smallUintToFloat(uint32_t q) {
#if defined(__CUDA_ARCH__)
  return __uint_as_float(0x4b000000u | q) - 8388608.0f;
#else
  return static_cast<float>(q);
#endif
}

/// floor(x) for 0 <= x < 2^23, exactly. The GPU adds 2^23 rounding down, which leaves floor(x) in
/// the mantissa, instead of a quarter-rate float-to-integer conversion.
PCV_HOST_DEVICE PCV_FORCE_INLINE uint32_t floorToUint(float x) {
#if defined(__CUDA_ARCH__)
  return __float_as_uint(__fadd_rd(x, 8388608.0f)) - 0x4b000000u;
#else
  return static_cast<uint32_t>(x);
#endif
}

/// floorToUint(x) + kFloorBias, for 0 <= x < 2^23: on the GPU one instruction, the bits of x + 2^23
/// rounded down. A caller combining several floors (a pixel index y * width + x) subtracts the
/// biases once, as a constant, instead of once per floor.
constexpr uint32_t kFloorBias = 0x4b000000u;
PCV_HOST_DEVICE PCV_FORCE_INLINE uint32_t floorToUintBiased(float x) {
#if defined(__CUDA_ARCH__)
  return __float_as_uint(__fadd_rd(x, 8388608.0f));
#else
  return static_cast<uint32_t>(x) + kFloorBias;
#endif
}

PCV_HOST_DEVICE PCV_FORCE_INLINE float clampf(float x, float lo, float hi) {
  return x < lo ? lo : (x > hi ? hi : x);
}

/// sin and cos of a full turn fraction t in [0, 1) (angle = 2*pi*t), from Taylor polynomials on
/// a quarter turn. Accurate to ~1e-7, and bit-identical on host and device because it uses
/// only IEEE +, * and an exact quadrant split.
PCV_HOST_DEVICE inline void sinCosTurns(float t, float& sinOut, float& cosOut) {
  const float quarters = t * 4.0f;
  const int quadrant = static_cast<int>(quarters) & 3;  // t >= 0, so truncation is floor
  const float x = (quarters - static_cast<float>(static_cast<int>(quarters))) * 1.57079632679f;
  const float x2 = x * x;
  const float s =
      x *
      (1.0f +
       x2 * (-1.0f / 6.0f +
             x2 * (1.0f / 120.0f +
                   x2 * (-1.0f / 5040.0f + x2 * (1.0f / 362880.0f + x2 * (-1.0f / 39916800.0f))))));
  const float c =
      1.0f +
      x2 * (-0.5f + x2 * (1.0f / 24.0f + x2 * (-1.0f / 720.0f + x2 * (1.0f / 40320.0f +
                                                                      x2 * (-1.0f / 3628800.0f)))));
  switch (quadrant) {
    case 0:
      sinOut = s;
      cosOut = c;
      break;
    case 1:
      sinOut = c;
      cosOut = -s;
      break;
    case 2:
      sinOut = -s;
      cosOut = -c;
      break;
    default:
      sinOut = -c;
      cosOut = s;
      break;
  }
}

}  // namespace pcv
