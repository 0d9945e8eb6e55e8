/// @brief A per-point array of the Vulkan pool cut into slices of a power-of-two count of
/// elements, each its own buffer: no single allocation passes the device's
/// maxMemoryAllocationSize, however many points the pool holds (as the CUDA layout slices its
/// sets). The shaders find element i in slice i >> shift at i & mask (frame_params.glsl).
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

  /// Grows to `elements`, keeping the contents; new elements hold `fill` (32-bit pattern) or
  /// are left unwritten.
  void grow(uint64_t elements, std::optional<uint32_t> fill);
  void free() { slices_.clear(), elements_ = 0; }
  uint64_t elements() const { return elements_; }
  uint64_t bytes() const;
  explicit operator bool() const { return elements_ > 0; }

  void upload(VulkanTransfer& transfer, uint64_t first, const void* data, uint64_t count);
  void download(VulkanTransfer& transfer, uint64_t first, void* data, uint64_t count) const;
  /// Records a fill of elements [first, first + count) with a 32-bit pattern (element ranges
  /// whose bytes start and end on 4-byte boundaries).
  void recordFill(VkCommandBuffer commands, uint64_t first, uint64_t count, uint32_t pattern) const;
  /// The slices' device addresses, in order.
  std::vector<VkDeviceAddress> addresses() const;

 private:
  /// Calls visit(slice, offset in it, first element index of the piece, count) per piece.
  template <typename Visit>
  void forPieces(uint64_t first, uint64_t count, Visit&& visit) const;

  VulkanContext& context_;
  uint32_t elementBytes_;
  uint64_t sliceElements_;
  const char* what_;
  uint64_t elements_ = 0;
  std::vector<VulkanBuffer> slices_;
};

}  // namespace pcv::vk
