/// @brief Whether a Vulkan device's quotient 1.0 / w and one Newton step are already 1 / w
/// rounded to nearest for every view distance. GLSL lets the quotient be off by 2.5 ulp, so the
/// shaders check the step's result against its exact residual (float_math.glsl); where the probe
/// finds the step exact for every float of the view range, the backend builds its pipelines
/// without the check (the specialization constant kNewtonReciprocalExact), as the CUDA raster
/// does on the strength of tests/raster/reciprocal_test.cpp.
#pragma once

#include <cstdint>

namespace pcv::vk {

class VulkanContext;

struct ReciprocalProbeResult {
  uint64_t checked = 0;                   ///< floats compared
  uint64_t mismatches = 0;                ///< of them, those where the step is not exact
  uint32_t lowestMismatch = 0xffffffffu;  ///< the bits of the lowest such float
};

/// Compares the step with the checked reciprocal for the floats whose bits are in [firstBits,
/// endBits), on the device, with the shaders' fma variant. `estimateScale` multiplies the
/// quotient before the step (1 but in tests, which spoil it to see mismatches found).
ReciprocalProbeResult probeNewtonReciprocal(VulkanContext& context, bool emulatedFma,
                                            uint32_t firstBits, uint32_t endBits,
                                            float estimateScale = 1.0f);

/// probeNewtonReciprocal over every float of [kMinViewDistance, kMaxViewDistance] (1.7 billion;
/// lost in the noise of pcv's start on an H100) finds no mismatch.
bool newtonReciprocalExact(VulkanContext& context, bool emulatedFma);

}  // namespace pcv::vk
