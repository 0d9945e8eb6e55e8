#include "sliced_array.hpp"

#include <algorithm>

#include "vulkan_context.hpp"

namespace pcv::vk {

SlicedArray::SlicedArray(VulkanContext& context, uint32_t elementBytes, uint64_t sliceElements,
                         const char* what)
    : context_(context), elementBytes_(elementBytes), sliceElements_(sliceElements), what_(what) {}

SlicedArray::~SlicedArray() {
  if (allocating_.valid()) allocating_.wait();
}

void SlicedArray::free() {
  if (allocating_.valid()) allocating_.wait();
  allocating_ = {};
  slices_.clear();
  taken_ = 0;
  elements_ = bytes_ = 0;
  pendingFill_.reset();
}

void SlicedArray::grow(uint64_t elements, std::optional<uint32_t> fill) {
  if (elements <= elements_) return;
  takeAllocated(0, elements_);  // every slice taken before the plan changes
  const uint64_t sliceCount = (elements + sliceElements_ - 1) / sliceElements_;
  // Slices take whole 4-byte words (an odd count of 2-byte filter words is padded), since fills
  // and the shaders work in words.
  const auto sliceBytes = [&](uint64_t s) {
    const uint64_t begin = s * sliceElements_;
    return (std::min(sliceElements_, elements - begin) * elementBytes_ + 3) / 4 * 4;
  };
  // Slices that exist and grow, and the first new one: allocated (and copied, filled) here.
  const size_t had = slices_.size();
  const size_t now = std::min<size_t>(sliceCount, had + 1);
  slices_.resize(sliceCount);
  for (size_t s = 0; s < now; ++s) {
    const uint64_t bytes = sliceBytes(s);
    const uint64_t old = slices_[s].bytes();
    if (s < had && old >= bytes) continue;
    VulkanBuffer bigger(context_, bytes, VulkanBuffer::Kind::Device, what_);
    context_.run([&](VkCommandBuffer commands) {
      if (old > 0) {
        const VkBufferCopy region{.srcOffset = 0, .dstOffset = 0, .size = old};
        vkCmdCopyBuffer(commands, slices_[s].handle(), bigger.handle(), 1, &region);
      }
      if (fill) vkCmdFillBuffer(commands, bigger.handle(), old, bytes - old, *fill);
    });
    slices_[s] = std::move(bigger);
  }
  taken_ = now;
  // The others on their own thread (they hold nothing yet: no copy).
  pendingFill_ = fill;
  if (now < sliceCount) {
    std::vector<uint64_t> sizes;
    for (size_t s = now; s < sliceCount; ++s) sizes.push_back(sliceBytes(s));
    allocating_ = std::async(std::launch::async, [this, now, sizes] {
      for (size_t i = 0; i < sizes.size(); ++i) {
        slices_[now + i] = VulkanBuffer(context_, sizes[i], VulkanBuffer::Kind::Device, what_);
      }
    });
  }
  elements_ = elements;
  bytes_ = 0;
  for (uint64_t s = 0; s < sliceCount; ++s) bytes_ += sliceBytes(s);
}

void SlicedArray::takeAllocated(uint64_t first, uint64_t count) {
  if (taken_ == slices_.size() || count == 0) return;
  const uint64_t lastSlice = (first + count - 1) / sliceElements_;
  if (lastSlice < taken_) return;
  allocating_.get();  // rethrows a failed allocation
  if (pendingFill_) {
    context_.run([&](VkCommandBuffer commands) {
      for (size_t s = taken_; s < slices_.size(); ++s) {
        vkCmdFillBuffer(commands, slices_[s].handle(), 0, slices_[s].bytes(), *pendingFill_);
      }
    });
  }
  taken_ = slices_.size();
}

template <typename Visit>
void SlicedArray::forPieces(uint64_t first, uint64_t count, Visit&& visit) const {
  for (uint64_t done = 0; done < count;) {
    const uint64_t element = first + done;
    const uint64_t slice = element / sliceElements_;
    const uint64_t offset = element % sliceElements_;
    const uint64_t piece = std::min(count - done, sliceElements_ - offset);
    if (slice < taken_) visit(slices_[slice], offset * elementBytes_, done, piece);
    done += piece;
  }
}

void SlicedArray::upload(VulkanTransfer& transfer, uint64_t first, const void* data,
                         uint64_t count) {
  takeAllocated(first, count);
  const auto* bytes = static_cast<const unsigned char*>(data);
  forPieces(first, count, [&](const VulkanBuffer& slice, uint64_t offset, uint64_t done,
                              uint64_t piece) {
    transfer.upload(slice, offset, bytes + done * elementBytes_, piece * elementBytes_);
  });
}

void SlicedArray::download(VulkanTransfer& transfer, uint64_t first, void* data, uint64_t count) {
  takeAllocated(first, count);
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
  std::vector<VkDeviceAddress> out(slices_.size(), 0);
  for (size_t s = 0; s < taken_; ++s) out[s] = slices_[s].address();
  return out;
}

}  // namespace pcv::vk
