#version 460
// Whether one Newton step from the device's quotient is already 1 / w rounded to nearest: each
// invocation checks `perInvocation` consecutive floats from `first` (as bits) against the
// residual-checked reciprocal (float_math.glsl), counting those that differ and keeping the
// lowest such bits. `estimateScale` (1 but in tests) spoils the quotient so that a test can see
// the probe find a reciprocal that is not exact.
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_scalar_block_layout : require
#extension GL_GOOGLE_include_directive : require
#include "float_math.glsl"

layout(local_size_x = 256) in;

layout(buffer_reference, scalar) buffer ProbeParams {
  uint first;
  uint count;
  uint perInvocation;
  float estimateScale;
  uint mismatches;
  uint lowestMismatch;
};
layout(push_constant, scalar) uniform Push { ProbeParams params; } pc;

void main() {
  const uint groups = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  const uint invocation = groups * 256u + gl_LocalInvocationIndex;
  const uint count = pc.params.count, per = pc.params.perInvocation;
  const float scale = pc.params.estimateScale;
  const uint begin = invocation * per;
  if (begin >= count) return;
  const uint end = min(count, begin + per);
  uint mismatches = 0u, lowest = 0xffffffffu;
  for (uint offset = begin; offset < end; ++offset) {
    const uint bits = pc.params.first + offset;
    const float w = uintBitsToFloat(bits);
    precise float estimate = (1.0 / w) * scale;
    const float fast = newtonReciprocal(w, estimate);
    const float exact = checkedReciprocal(w, newtonReciprocal(w, 1.0 / w));
    if (floatBitsToUint(fast) != floatBitsToUint(exact)) {
      ++mismatches;
      lowest = min(lowest, bits);
    }
  }
  if (mismatches != 0u) {
    atomicAdd(pc.params.mismatches, mismatches);
    atomicMin(pc.params.lowestMismatch, lowest);
  }
}
