#include "fma_probe.hpp"

#include <cstdint>
#include <cstring>

#include "compute_kernel.hpp"
#include "vulkan_buffer.hpp"
#include "vulkan_context.hpp"
#include "vulkan_shaders.hpp"
#include "vulkan_transfer.hpp"

namespace pcv::vk {

bool deviceFusesFma(VulkanContext& context) {
  // (1 + 2^-23)^2 - (1 + 2^-22) is 2^-46 with one rounding, 0 with two (the square rounds to
  // 1 + 2^-22 first).
  const uint32_t inputs[4] = {0x3f800001u, 0x3f800001u, 0xbf800002u, 0u};
  VulkanBuffer values(context, sizeof inputs, VulkanBuffer::Kind::Upload, "the fma probe");
  std::memcpy(values.mapped(), inputs, sizeof inputs);
  const ComputeKernel probe(context.device(), spirv::fmaProbe(), "fma_probe");
  context.run([&](VkCommandBuffer commands) {
    probe.recordPerItem(commands, values.address(), 1);
    hostReadBarrier(commands);
  });
  float result = 0.0f;
  std::memcpy(&result, static_cast<const char*>(values.mapped()) + 12, sizeof result);
  return result != 0.0f;
}

}  // namespace pcv::vk
