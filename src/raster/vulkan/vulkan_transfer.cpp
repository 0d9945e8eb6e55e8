#include "vulkan_transfer.hpp"

#include <algorithm>
#include <cstring>
#include <iterator>

#include "vulkan_context.hpp"

namespace pcv::vk {
namespace {

constexpr uint64_t kStagingBytes = 64ull << 20;
/// The upload buffer's first size, doubling to kStagingBytes as uploads fill it: NVIDIA's driver
/// takes about 16 ms to make 64 MiB of host-visible memory, which a stream's first node (a few
/// hundred kilobytes) would wait for.
constexpr uint64_t kFirstUploadBytes = 2ull << 20;

}  // namespace

VulkanTransfer::VulkanTransfer(VulkanContext& context) : context_(context) {
  context_.addQueuedWork(*this);
}

VulkanTransfer::~VulkanTransfer() {
  context_.removeQueuedWork(*this);
}

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
  const auto* from = static_cast<const unsigned char*>(data);
  for (uint64_t done = 0; done < bytes;) {
    const uint64_t piece = std::min(bytes - done, kStagingBytes);
    if (!upload_ || staged_ + piece > upload_.bytes()) {
      // The staging buffer is full (or not made yet): the queued copies run first, and a full
      // buffer is replaced by one twice its size.
      if (!queued_.empty()) runQueued();
      staging(upload_, VulkanBuffer::Kind::Upload,
              std::max({kFirstUploadBytes, 2 * upload_.bytes(), piece}));
    }
    const uint64_t begin = offset + done;
    if (overlapsQueued(to.handle(), begin, begin + piece)) {
      // Two copies to the same bytes in one submission would need an order between them: the
      // first runs now (rare: slots freed and filled again before a frame).
      runQueued();
    }
    std::memcpy(static_cast<unsigned char*>(upload_.mapped()) + staged_, from + done, piece);
    queued_[{to.handle(), begin}] = {.srcOffset = staged_, .dstOffset = begin, .size = piece};
    staged_ += (piece + 15) / 16 * 16;  // each piece's bytes start 16-byte aligned
    done += piece;
  }
}

bool VulkanTransfer::overlapsQueued(VkBuffer to, uint64_t begin, uint64_t end) const {
  // The queued ranges of a buffer do not overlap: only the last one starting before `end` can
  // reach into [begin, end).
  auto after = queued_.lower_bound({to, end});
  if (after == queued_.begin()) return false;
  const auto& [key, region] = *std::prev(after);
  return key.first == to && region.dstOffset + region.size > begin;
}

bool VulkanTransfer::record(VkCommandBuffer commands) {
  for (const auto& [key, region] : queued_) {
    vkCmdCopyBuffer(commands, upload_.handle(), key.first, 1, &region);
  }
  return !queued_.empty();
}

void VulkanTransfer::completed() {
  queued_.clear();
  staged_ = 0;
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
  completed();
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
