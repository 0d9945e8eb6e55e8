#include "vulkan_transfer.hpp"

#include <algorithm>
#include <cstring>

#include "vulkan_context.hpp"

namespace pcv::vk {
namespace {

constexpr uint64_t kStagingBytes = 64ull << 20;

}  // namespace

VulkanBuffer& VulkanTransfer::staging(VulkanBuffer& buffer, VulkanBuffer::Kind kind,
                                      uint64_t bytes) {
  const uint64_t wanted = std::min(bytes, kStagingBytes);
  if (!buffer || buffer.bytes() < wanted) {
    buffer = VulkanBuffer();  // free the old one first
    buffer = VulkanBuffer(context_, std::max<uint64_t>(wanted, 1 << 20), kind, "a staging buffer");
  }
  return buffer;
}

void VulkanTransfer::upload(const VulkanBuffer& to, uint64_t offset, const void* data,
                            uint64_t bytes) {
  if (bytes == 0) return;
  VulkanBuffer& stage = staging(upload_, VulkanBuffer::Kind::Upload, bytes);
  const auto* from = static_cast<const unsigned char*>(data);
  for (uint64_t done = 0; done < bytes;) {
    const uint64_t piece = std::min(bytes - done, stage.bytes());
    std::memcpy(stage.mapped(), from + done, piece);
    context_.run([&](VkCommandBuffer commands) {
      const VkBufferCopy region{.srcOffset = 0, .dstOffset = offset + done, .size = piece};
      vkCmdCopyBuffer(commands, stage.handle(), to.handle(), 1, &region);
    });
    done += piece;
  }
}

void VulkanTransfer::download(const VulkanBuffer& from, uint64_t offset, void* data,
                              uint64_t bytes) {
  if (bytes == 0) return;
  VulkanBuffer& stage = staging(download_, VulkanBuffer::Kind::Readback, bytes);
  auto* to = static_cast<unsigned char*>(data);
  for (uint64_t done = 0; done < bytes;) {
    const uint64_t piece = std::min(bytes - done, stage.bytes());
    context_.run([&](VkCommandBuffer commands) {
      const VkBufferCopy region{.srcOffset = offset + done, .dstOffset = 0, .size = piece};
      vkCmdCopyBuffer(commands, from.handle(), stage.handle(), 1, &region);
      hostReadBarrier(commands);
    });
    std::memcpy(to + done, stage.mapped(), piece);
    done += piece;
  }
}

void VulkanTransfer::release() {
  upload_ = VulkanBuffer();
  download_ = VulkanBuffer();
}

void hostReadBarrier(VkCommandBuffer commands) {
  const VkMemoryBarrier barrier{.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                                .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT |
                                                 VK_ACCESS_SHADER_WRITE_BIT,
                                .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(commands,
                       VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                       VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier, 0, nullptr, 0, nullptr);
}

}  // namespace pcv::vk
