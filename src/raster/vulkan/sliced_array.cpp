#include "sliced_array.hpp"

#include <algorithm>

#include "vulkan_context.hpp"

namespace pcv::vk {

SlicedArray::SlicedArray(VulkanContext& context, uint32_t elementBytes, uint64_t sliceElements,
                         const char* what)
    : context_(context), elementBytes_(elementBytes), sliceElements_(sliceElements), what_(what) {}

uint64_t SlicedArray::bytes() const {
  uint64_t total = 0;
  for (const VulkanBuffer& slice : slices_) total += slice.bytes();
  return total;
}

void SlicedArray::grow(uint64_t elements, std::optional<uint32_t> fill) {
  if (elements <= elements_) return;
  const uint64_t sliceCount = (elements + sliceElements_ - 1) / sliceElements_;
  // Every slice but the last is whole; the last grows by a new buffer and a copy. Slices take
  // whole 4-byte words (an odd count of 2-byte filter words is padded), since fills and the
  // shaders work in words.
  for (uint64_t s = 0; s < sliceCount; ++s) {
    const uint64_t begin = s * sliceElements_;
    const uint64_t bytes = (std::min(sliceElements_, elements - begin) * elementBytes_ + 3) / 4 * 4;
    const uint64_t had = s < slices_.size() ? slices_[s].bytes() : 0;
    if (s < slices_.size() && had >= bytes) continue;
    VulkanBuffer bigger(context_, bytes, VulkanBuffer::Kind::Device, what_);
    context_.run([&](VkCommandBuffer commands) {
      if (had > 0) {
        const VkBufferCopy region{.srcOffset = 0, .dstOffset = 0, .size = had};
        vkCmdCopyBuffer(commands, slices_[s].handle(), bigger.handle(), 1, &region);
      }
      if (fill) vkCmdFillBuffer(commands, bigger.handle(), had, bytes - had, *fill);
    });
    if (s < slices_.size()) {
      slices_[s] = std::move(bigger);
    } else {
      slices_.push_back(std::move(bigger));
    }
  }
  elements_ = elements;
}

template <typename Visit>
void SlicedArray::forPieces(uint64_t first, uint64_t count, Visit&& visit) const {
  for (uint64_t done = 0; done < count;) {
    const uint64_t element = first + done;
    const uint64_t slice = element / sliceElements_;
    const uint64_t offset = element % sliceElements_;
    const uint64_t piece = std::min(count - done, sliceElements_ - offset);
    visit(slices_[slice], offset * elementBytes_, done, piece);
    done += piece;
  }
}

void SlicedArray::upload(VulkanTransfer& transfer, uint64_t first, const void* data,
                         uint64_t count) {
  const auto* bytes = static_cast<const unsigned char*>(data);
  forPieces(first, count, [&](const VulkanBuffer& slice, uint64_t offset, uint64_t done,
                              uint64_t piece) {
    transfer.upload(slice, offset, bytes + done * elementBytes_, piece * elementBytes_);
  });
}

void SlicedArray::download(VulkanTransfer& transfer, uint64_t first, void* data,
                           uint64_t count) const {
  auto* bytes = static_cast<unsigned char*>(data);
  forPieces(first, count, [&](const VulkanBuffer& slice, uint64_t offset, uint64_t done,
                              uint64_t piece) {
    transfer.download(slice, offset, bytes + done * elementBytes_, piece * elementBytes_);
  });
}

void SlicedArray::recordFill(VkCommandBuffer commands, uint64_t first, uint64_t count,
                             uint32_t pattern) const {
  forPieces(first, count, [&](const VulkanBuffer& slice, uint64_t offset, uint64_t,
                              uint64_t piece) {
    vkCmdFillBuffer(commands, slice.handle(), offset, piece * elementBytes_, pattern);
  });
}

std::vector<VkDeviceAddress> SlicedArray::addresses() const {
  std::vector<VkDeviceAddress> out;
  for (const VulkanBuffer& slice : slices_) out.push_back(slice.address());
  return out;
}

}  // namespace pcv::vk
