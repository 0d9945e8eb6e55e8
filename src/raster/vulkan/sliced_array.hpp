/// @brief A per-point array of the Vulkan pool cut into slices of a power-of-two count of
/// elements, each its own buffer: no single allocation passes the device's
/// maxMemoryAllocationSize, however many points the pool holds (as the CUDA layout slices its
/// sets). The shaders find element i in slice i >> shift at i & mask (frame_params.glsl).
/// A slice's memory is allocated when an upload or download first reaches it, not when the
/// array grows, and only as far as elements were reached (doubling from 32 MiB): a device may
/// take tens of milliseconds per GiB to allocate (27 ms on an H100), and a stream reserves its
/// whole pool when it opens but fills it node by node, from its first slots.
#pragma once

#include <cstdint>
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

  /// Grows to `elements`, keeping the contents; new elements hold `fill` (32-bit pattern) or
  /// are left unwritten. Memory comes (filled) when an upload or download first reaches an
  /// element, which throws OutOfMemoryError naming the sizes when the device has no room left.
  void grow(uint64_t elements, std::optional<uint32_t> fill);
  void free();
  uint64_t elements() const { return elements_; }
  /// Bytes of the slices as grown, those not allocated yet too.
  uint64_t bytes() const { return bytes_; }
  explicit operator bool() const { return elements_ > 0; }
  /// Bytes of device memory the slices hold now.
  uint64_t allocatedBytes() const;

  void upload(VulkanTransfer& transfer, uint64_t first, const void* data, uint64_t count);
  void download(VulkanTransfer& transfer, uint64_t first, void* data, uint64_t count);
  /// Records a fill of elements [first, first + count) with a 32-bit pattern (element ranges
  /// whose bytes start and end on 4-byte boundaries). Pieces in slices not allocated yet are
  /// skipped: they hold nothing, and get grow's fill when allocated.
  void recordFill(VkCommandBuffer commands, uint64_t first, uint64_t count, uint32_t pattern) const;
  /// Allocates (and fills) memory for the elements `other` (of the same slice size) has memory
  /// for: arrays of one pool hold memory for the same points, so a shader reading any of them
  /// for a point that lives never reads past a slice's memory.
  void allocateLike(const SlicedArray& other);
  /// The slices' device addresses, in order; 0 for those not allocated yet (no element there
  /// has been written, so no shader reads one). They change as slices grow: ask each frame.
  std::vector<VkDeviceAddress> addresses() const;

 private:
  /// Calls visit(slice, offset in it, first element index of the piece, count) per piece of
  /// the slices allocated.
  template <typename Visit>
  void forPieces(uint64_t first, uint64_t count, Visit&& visit) const;
  /// Gives the slices elements [first, first + count) reach memory for them (and fills it),
  /// growing the slices that have less.
  void allocateReached(uint64_t first, uint64_t count);

  VulkanContext& context_;
  uint32_t elementBytes_;
  uint64_t sliceElements_;
  const char* what_;
  uint64_t elements_ = 0;
  uint64_t bytes_ = 0;
  std::vector<uint64_t> planned_;     // bytes of each slice
  std::vector<VulkanBuffer> slices_;  // empty until an access reaches it; then its first elements
  std::optional<uint32_t> fill_;      // what new slices hold
};

}  // namespace pcv::vk
