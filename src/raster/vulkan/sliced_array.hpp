/// @brief A per-point array of the Vulkan pool cut into slices of a power-of-two count of
/// elements, each its own buffer: no single allocation passes the device's
/// maxMemoryAllocationSize, however many points the pool holds (as the CUDA layout slices its
/// sets). The shaders find element i in slice i >> shift at i & mask (frame_params.glsl).
/// Growing by several slices allocates the first new one at once and the others on a thread of
/// their own: a device may take tens of milliseconds per GiB to allocate (a stream reserves its
/// whole pool when it opens, and draws its first nodes from the first slice).
#pragma once

#include <cstdint>
#include <future>
#include <optional>
#include <vector>

#include "vulkan_buffer.hpp"
#include "vulkan_transfer.hpp"

namespace pcv::vk {

class SlicedArray {
 public:
  SlicedArray(VulkanContext& context, uint32_t elementBytes, uint64_t sliceElements,
              const char* what);

  SlicedArray(const SlicedArray&) = delete;
  SlicedArray& operator=(const SlicedArray&) = delete;
  ~SlicedArray();

  /// Grows to `elements`, keeping the contents; new elements hold `fill` (32-bit pattern) or
  /// are left unwritten. Slices after the first new one may still be allocating when it
  /// returns: upload and download wait for the ones they reach. Throws OutOfMemoryError for
  /// the first new slice; an allocation that fails later throws from the access that waits
  /// for it.
  void grow(uint64_t elements, std::optional<uint32_t> fill);
  void free();
  uint64_t elements() const { return elements_; }
  /// Bytes of the slices, those still allocating too.
  uint64_t bytes() const { return bytes_; }
  explicit operator bool() const { return elements_ > 0; }

  void upload(VulkanTransfer& transfer, uint64_t first, const void* data, uint64_t count);
  void download(VulkanTransfer& transfer, uint64_t first, void* data, uint64_t count);
  /// Records a fill of elements [first, first + count) with a 32-bit pattern (element ranges
  /// whose bytes start and end on 4-byte boundaries). Pieces in slices still allocating are
  /// skipped: they hold nothing yet, and get grow's fill when taken.
  void recordFill(VkCommandBuffer commands, uint64_t first, uint64_t count, uint32_t pattern) const;
  /// The slices' device addresses, in order; 0 for those still allocating (no element there
  /// has been written, so no shader reads one).
  std::vector<VkDeviceAddress> addresses() const;

 private:
  /// Calls visit(slice, offset in it, first element index of the piece, count) per piece of
  /// the slices taken.
  template <typename Visit>
  void forPieces(uint64_t first, uint64_t count, Visit&& visit) const;
  /// Takes the slices allocated on their thread (waiting for them, filling them) when
  /// elements [first, first + count) reach one.
  void takeAllocated(uint64_t first, uint64_t count);

  VulkanContext& context_;
  uint32_t elementBytes_;
  uint64_t sliceElements_;
  const char* what_;
  uint64_t elements_ = 0;
  uint64_t bytes_ = 0;
  std::vector<VulkanBuffer> slices_;  // the planned count; [0, taken_) usable
  size_t taken_ = 0;
  std::optional<uint32_t> pendingFill_;  // grow's fill, for the slices allocated on their thread
  std::future<void> allocating_;         // last: waited for before the slices go
};

}  // namespace pcv::vk
