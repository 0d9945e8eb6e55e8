#include "reciprocal_probe.hpp"

#include <bit>
#include <cstring>

#include "compute_kernel.hpp"
#include "pcv/raster/projection.hpp"
#include "vulkan_buffer.hpp"
#include "vulkan_context.hpp"
#include "vulkan_shaders.hpp"
#include "vulkan_transfer.hpp"

namespace pcv::vk {
namespace {

/// ProbeParams of reciprocal_probe.comp.
struct ProbeParams {
  uint32_t first;
  uint32_t count;
  uint32_t perInvocation;
  float estimateScale;
  uint32_t mismatches;
  uint32_t lowestMismatch;
};

constexpr uint32_t kWorkgroupSize = 256;
/// Floats per invocation: few enough invocations for one dispatch's rows, enough that the whole
/// range is one short dispatch.
constexpr uint32_t kPerInvocation = 4096;

}  // namespace

ReciprocalProbeResult probeNewtonReciprocal(VulkanContext& context, bool emulatedFma,
                                            uint32_t firstBits, uint32_t endBits,
                                            float estimateScale) {
  ReciprocalProbeResult result;
  if (endBits <= firstBits) return result;
  const ProbeParams params{.first = firstBits,
                           .count = endBits - firstBits,
                           .perInvocation = kPerInvocation,
                           .estimateScale = estimateScale,
                           .mismatches = 0,
                           .lowestMismatch = 0xffffffffu};
  VulkanBuffer buffer(context, sizeof params, VulkanBuffer::Kind::Upload, "the reciprocal probe");
  std::memcpy(buffer.mapped(), &params, sizeof params);
  const ComputeKernel probe(context.device(), spirv::reciprocalProbe(emulatedFma),
                            "reciprocal_probe");
  const uint64_t invocations = (uint64_t(params.count) + kPerInvocation - 1) / kPerInvocation;
  const uint64_t groups = (invocations + kWorkgroupSize - 1) / kWorkgroupSize;
  context.run([&](VkCommandBuffer commands) {
    probe.recordPerItem(commands, buffer.address(), groups);
    hostReadBarrier(commands);
  });
  ProbeParams out;
  std::memcpy(&out, buffer.mapped(), sizeof out);
  result.checked = params.count;
  result.mismatches = out.mismatches;
  result.lowestMismatch = out.lowestMismatch;
  return result;
}

bool newtonReciprocalExact(VulkanContext& context, bool emulatedFma) {
  const uint32_t first = std::bit_cast<uint32_t>(kMinViewDistance);
  const uint32_t last = std::bit_cast<uint32_t>(kMaxViewDistance);
  return probeNewtonReciprocal(context, emulatedFma, first, last + 1).mismatches == 0;
}

}  // namespace pcv::vk
