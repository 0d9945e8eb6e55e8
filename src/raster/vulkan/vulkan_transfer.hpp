/// @brief Copies between host memory and device buffers through a reused staging buffer, in
/// pieces of at most 64 MiB, so an upload of any size needs a bounded amount of host-visible
/// memory.
#pragma once

#include <cstdint>

#include "vulkan_buffer.hpp"

namespace pcv::vk {

class VulkanTransfer {
 public:
  explicit VulkanTransfer(VulkanContext& context) : context_(context) {}

  void upload(const VulkanBuffer& to, uint64_t offset, const void* data, uint64_t bytes);
  void download(const VulkanBuffer& from, uint64_t offset, void* data, uint64_t bytes);
  /// Frees the staging buffers (they come back on the next copy).
  void release();

 private:
  VulkanBuffer& staging(VulkanBuffer& buffer, VulkanBuffer::Kind kind, uint64_t bytes);

  VulkanContext& context_;
  VulkanBuffer upload_;
  VulkanBuffer download_;
};

/// Makes transfer and shader writes visible to the host after the fence.
void hostReadBarrier(VkCommandBuffer commands);

}  // namespace pcv::vk
