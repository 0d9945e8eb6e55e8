/// @brief Copies between host memory and device buffers through reused staging buffers, in
/// pieces of at most 64 MiB, so a copy of any size needs a bounded amount of host-visible
/// memory. Uploads are queued: their copies go with the context's next submission (a frame, a
/// download, a fill), so the many small uploads of a stream's nodes cost one submission and
/// one wait between them, not one each.
#pragma once

#include <cstdint>
#include <map>
#include <utility>

#include "vulkan_buffer.hpp"
#include "vulkan_context.hpp"

namespace pcv::vk {

class VulkanTransfer : private VulkanContext::QueuedWork {
 public:
  explicit VulkanTransfer(VulkanContext& context);
  ~VulkanTransfer() override;
  VulkanTransfer(const VulkanTransfer&) = delete;
  VulkanTransfer& operator=(const VulkanTransfer&) = delete;

  /// Queues the copy of `bytes` of `data` to `to` at `offset` (the bytes are staged now: `data`
  /// may go). `to` must live until the context's next run(), which performs it.
  void upload(const VulkanBuffer& to, uint64_t offset, const void* data, uint64_t bytes);
  /// Copies now (after the queued uploads).
  void download(const VulkanBuffer& from, uint64_t offset, void* data, uint64_t bytes);
  /// Drops the queued uploads (their buffers are being freed) and frees the staging buffers
  /// (they come back on the next copy).
  void release();

 private:
  bool overlapsQueued(VkBuffer to, uint64_t begin, uint64_t end) const;
  /// Runs the queued copies now (an empty submission records them).
  void runQueued() {
    context_.run([](VkCommandBuffer) {});
  }
  bool record(VkCommandBuffer commands) override;
  void completed() override;
  VulkanBuffer& staging(VulkanBuffer& buffer, VulkanBuffer::Kind kind, uint64_t bytes);

  VulkanContext& context_;
  VulkanBuffer upload_;
  VulkanBuffer download_;
  /// The queued copies from upload_, by destination and offset there: the copies to one
  /// buffer do not overlap (see upload), so they go in any order.
  std::map<std::pair<VkBuffer, uint64_t>, VkBufferCopy> queued_;
  uint64_t staged_ = 0;  ///< bytes of upload_ the queued copies read
};

/// Makes transfer and shader writes visible to the host after the fence.
void hostReadBarrier(VkCommandBuffer commands);

}  // namespace pcv::vk
