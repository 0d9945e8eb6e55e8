// Float helpers of the Vulkan shaders: the GLSL twins of pcv/core/float_math.hpp and
// log_exp.hpp. Every float result is `precise` (no contraction into fused multiply-adds the
// CPU backend does not make) and every division goes through divideExact, because Vulkan lets a
// shader's `/` be off by 2.5 ulp where the CPU backend's is correctly rounded.
#ifndef PCV_FLOAT_MATH_GLSL
#define PCV_FLOAT_MATH_GLSL

// Constants as their float bits: GLSL literals go through double first, the C++ ones do not.
#define kThird uintBitsToFloat(0x3eaaaaabu)        // 1.0f / 3.0f
#define kFifth uintBitsToFloat(0x3e4ccccdu)        // 1.0f / 5.0f
#define kSeventh uintBitsToFloat(0x3e124925u)      // 1.0f / 7.0f
#define kTwoOverLn2 uintBitsToFloat(0x4038aa3bu)   // 2.88539008178f
#define kLn2 uintBitsToFloat(0x3f317218u)          // 0.69314718056f
#define kSixth uintBitsToFloat(0x3e2aaaabu)        // 1.0f / 6.0f
#define k24th uintBitsToFloat(0x3d2aaaabu)         // 1.0f / 24.0f
#define k120th uintBitsToFloat(0x3c088889u)        // 1.0f / 120.0f
#define k720th uintBitsToFloat(0x3ab60b61u)        // 1.0f / 720.0f
#define kPositiveInfinity uintBitsToFloat(0x7f800000u)

#ifdef PCV_EMULATED_FMA
// a * b + c with one rounding where the device's fma() rounds twice (lavapipe lowers it to a
// multiply and an add): the product is exact in double, the double sum is within half a double
// ulp of the exact one, and that differs from one rounding only when the sum lands exactly on a
// midpoint between two floats, which the sum's exact error (Knuth's two-sum) then breaks.
float fusedMultiplyAdd(float a, float b, float c) {
  precise double product = double(a) * double(b);
  precise double sum = product + double(c);
  precise double productPart = sum - double(c);
  precise double addendPart = sum - productPart;
  precise double error = (product - productPart) + (double(c) - addendPart);
  float rounded = float(sum);
  if (error != 0.0 && rounded != 0.0 && double(rounded) != sum) {
    const uint bits = floatBitsToUint(rounded);
    // The float on the other side of the sum.
    const bool sumAbove = sum > double(rounded);
    const float other = uintBitsToFloat((sumAbove == (rounded > 0.0)) ? bits + 1u : bits - 1u);
    precise double midpoint = (double(rounded) + double(other)) * 0.5;
    if (sum == midpoint && (error > 0.0) == (double(other) > double(rounded))) rounded = other;
  }
  return rounded;
}
#else
float fusedMultiplyAdd(float a, float b, float c) {
  precise float result = fma(a, b, c);
  return result;
}
#endif

bool isFiniteFloat(float value) {
  return (floatBitsToUint(value) & 0x7f800000u) != 0x7f800000u;
}

// Half the distance from q to its neighbour away from zero (towards zero when `down` and q is a
// power of two: the binade below is twice as fine). q normal, |q| >= 2^-100.
float halfStepOf(float q, bool towardsZero) {
  uint exponent = (floatBitsToUint(q) >> 23) & 0xffu;
  const bool powerOfTwo = (floatBitsToUint(q) & 0x007fffffu) == 0u;
  if (towardsZero && powerOfTwo) exponent -= 1u;
  return uintBitsToFloat((exponent - 24u) << 23);
}

// The quotient rounded to nearest, from q within one ulp of it and the exact residual of
// a - b * q: q, or its neighbour on the quotient's side when the residual says that is nearer
// (an exact quotient never lies on a midpoint).
float nearestQuotient(float q, float residual, float b) {
  if (residual == 0.0) return q;
  // The true quotient lies above q when residual and b have the same sign.
  const bool above = (residual > 0.0) == (b > 0.0);
  const bool towardsZero = above == (q < 0.0);
  precise float limit = abs(b) * halfStepOf(q, towardsZero);
  if (abs(residual) > limit) {
    const uint bits = floatBitsToUint(q);
    return uintBitsToFloat(towardsZero ? bits - 1u : bits + 1u);
  }
  return q;
}

// a / b rounded to nearest as IEEE division rounds it. The hardware quotient a * (1 / b) (within
// a few ulp)
// is refined once through the exact residual of a fused multiply-add, which puts it within one
// ulp, and then moved to its neighbour when the residual says the neighbour is nearer (an exact
// quotient never lies on a midpoint). Values outside the normal range keep the hardware quotient:
// no view distance, step count or colour the shaders divide comes near them.
float divideExact(float a, float b) {
  // One reciprocal serves the first quotient and its refinement.
  precise float inverse = 1.0 / b;
  precise float q = a * inverse;
  const uint qExponent = (floatBitsToUint(q) >> 23) & 0xffu;
  const uint bExponent = (floatBitsToUint(b) >> 23) & 0xffu;
  if (qExponent < 28u || qExponent > 250u || bExponent < 28u || bExponent > 250u) return q;
  precise float residual = fusedMultiplyAdd(-b, q, a);
  precise float refined = fusedMultiplyAdd(residual, inverse, q);
  q = refined;
  residual = fusedMultiplyAdd(-b, q, a);  // exact: q is within an ulp of a / b
  return nearestQuotient(q, residual, b);
}

// Set where the device's quotient and one Newton step already give 1 / w rounded to nearest
// for every view distance (kMinViewDistance <= w <= kMaxViewDistance): the reciprocal probe
// (reciprocal_probe.cpp) checks every float of that range on the device before any pipeline is
// made with it. The residual check it saves is 9-18 % of the raster's frame at 100 M points on
// an H100.
layout(constant_id = 0) const bool kNewtonReciprocalExact = false;

// One Newton step from `estimate`, an approximation of 1 / w (the device's quotient): within one
// ulp of 1 / w for view distances.
float newtonReciprocal(float w, float estimate) {
  precise float error = fusedMultiplyAdd(w, estimate, -1.0);
  precise float r = fusedMultiplyAdd(estimate, -error, estimate);
  return r;
}

// r (within one ulp of 1 / w) moved to its neighbour where the exact residual says that is
// nearer, as divideExact ends: 1 / w rounded to nearest.
float checkedReciprocal(float w, float r) {
  precise float residual = fusedMultiplyAdd(-w, r, 1.0);  // exact: r is within an ulp of 1 / w
  return nearestQuotient(r, residual, w);
}

// 1 / w for view distances (kMinViewDistance <= w <= kMaxViewDistance), as the CPU divides:
// the device's quotient (within a few ulp), one Newton step, which puts it within one ulp, and,
// unless the probe found the step exact on this device, the exact residual's verdict on its
// neighbour. Cheaper than divideExact (no second quotient, no exponent guards: view distances
// are far from the ends of the float range): 4-5 % of the raster's frame at 100 M points on an
// H100.
float reciprocalInViewRange(float w) {
  const float r = newtonReciprocal(w, 1.0 / w);
  return kNewtonReciprocalExact ? r : checkedReciprocal(w, r);
}

// log2(x) for finite x > 0 (x <= 0 gives -126), as fastLog2 in pcv/core/log_exp.hpp.
float fastLog2(float x) {
  if (!(x > 0.0)) return -126.0;
  const uint bits = floatBitsToUint(x);
  const int exponent = int((bits >> 23) & 0xffu) - 127;
  const float m = uintBitsToFloat((bits & 0x007fffffu) | 0x3f800000u);
  precise float t = divideExact(m - 1.0, m + 1.0);
  precise float t2 = t * t;
  precise float series = t * (1.0 + t2 * (kThird + t2 * (kFifth + t2 * kSeventh)));
  precise float result = float(exponent) + series * kTwoOverLn2;
  return result;
}

// 2^y for y <= 0 (y > 0 gives 1; 0 below -126), as fastExp2 in pcv/core/log_exp.hpp.
float fastExp2(float y) {
  if (!(y < 0.0)) return 1.0;
  if (y < -126.0) return 0.0;
  const float k = floor(y);
  precise float f = (y - k) * kLn2;
  precise float poly =
      1.0 + f * (1.0 + f * (0.5 + f * (kSixth + f * (k24th + f * (k120th + f * k720th)))));
  const uint scaleBits = uint(int(k) + 127) << 23;
  precise float result = poly * uintBitsToFloat(scaleBits);
  return result;
}

#endif
