#include "sliced_array.hpp"

#include <algorithm>

#include "vulkan_context.hpp"

namespace pcv::vk {

SlicedArray::SlicedArray(VulkanContext& context, uint32_t elementBytes, uint64_t sliceElements,
                         const char* what)
    : context_(context), elementBytes_(elementBytes), sliceElements_(sliceElements), what_(what) {}

void SlicedArray::free() {
  slices_.clear();
  planned_.clear();
  elements_ = bytes_ = 0;
  fill_.reset();
}

void SlicedArray::grow(uint64_t elements, std::optional<uint32_t> fill) {
  if (elements <= elements_) return;
  const uint64_t sliceCount = (elements + sliceElements_ - 1) / sliceElements_;
  // Slices take whole 4-byte words (an odd count of 2-byte filter words is padded), since fills
  // and the shaders work in words.
  planned_.resize(sliceCount);
  slices_.resize(sliceCount);
  bytes_ = 0;
  for (uint64_t s = 0; s < sliceCount; ++s) {
    const uint64_t begin = s * sliceElements_;
    planned_[s] = (std::min(sliceElements_, elements - begin) * elementBytes_ + 3) / 4 * 4;
    bytes_ += planned_[s];
    // A slice that holds elements and grows: a bigger buffer now, the contents copied over.
    const uint64_t old = slices_[s].bytes();
    if (!slices_[s] || old >= planned_[s]) continue;
    VulkanBuffer bigger(context_, planned_[s], VulkanBuffer::Kind::Device, what_);
    context_.run([&](VkCommandBuffer commands) {
      const VkBufferCopy region{.srcOffset = 0, .dstOffset = 0, .size = old};
      vkCmdCopyBuffer(commands, slices_[s].handle(), bigger.handle(), 1, &region);
      if (fill) vkCmdFillBuffer(commands, bigger.handle(), old, planned_[s] - old, *fill);
    });
    slices_[s] = std::move(bigger);
  }
  fill_ = fill;
  elements_ = elements;
}

void SlicedArray::allocateReached(uint64_t first, uint64_t count) {
  if (count == 0) return;
  const uint64_t lastSlice = (first + count - 1) / sliceElements_;
  for (uint64_t s = first / sliceElements_; s <= lastSlice && s < slices_.size(); ++s) {
    if (slices_[s]) continue;
    VulkanBuffer slice(context_, planned_[s], VulkanBuffer::Kind::Device, what_);
    if (fill_) {
      context_.run([&](VkCommandBuffer commands) {
        vkCmdFillBuffer(commands, slice.handle(), 0, planned_[s], *fill_);
      });
    }
    slices_[s] = std::move(slice);
  }
}

void SlicedArray::allocateLike(const SlicedArray& other) {
  for (size_t s = 0; s < other.slices_.size() && s < slices_.size(); ++s) {
    if (other.slices_[s] && !slices_[s]) allocateReached(s * sliceElements_, 1);
  }
}

template <typename Visit>
void SlicedArray::forPieces(uint64_t first, uint64_t count, Visit&& visit) const {
  for (uint64_t done = 0; done < count;) {
    const uint64_t element = first + done;
    const uint64_t slice = element / sliceElements_;
    const uint64_t offset = element % sliceElements_;
    const uint64_t piece = std::min(count - done, sliceElements_ - offset);
    if (slices_[slice]) visit(slices_[slice], offset * elementBytes_, done, piece);
    done += piece;
  }
}

void SlicedArray::upload(VulkanTransfer& transfer, uint64_t first, const void* data,
                         uint64_t count) {
  allocateReached(first, count);
  const auto* bytes = static_cast<const unsigned char*>(data);
  forPieces(first, count, [&](const VulkanBuffer& slice, uint64_t offset, uint64_t done,
                              uint64_t piece) {
    transfer.upload(slice, offset, bytes + done * elementBytes_, piece * elementBytes_);
  });
}

void SlicedArray::download(VulkanTransfer& transfer, uint64_t first, void* data, uint64_t count) {
  allocateReached(first, count);
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
  for (const VulkanBuffer& slice : slices_) out.push_back(slice.address());  // 0 where none
  return out;
}

}  // namespace pcv::vk
