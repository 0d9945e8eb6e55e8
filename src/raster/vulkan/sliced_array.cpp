#include "sliced_array.hpp"

#include <algorithm>

#include "vulkan_context.hpp"

namespace pcv::vk {
namespace {

/// What a slice's memory starts with: little to allocate when a stream's first node arrives
/// (a device may take tens of milliseconds per GiB), doubling as points fill it.
constexpr uint64_t kFirstSliceBytes = uint64_t(32) << 20;

}  // namespace

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
  if (fill && fill != fill_) {
    // The elements grown before hold the old fill: the slices with memory get it for all of
    // them now, before the memory that comes later takes the new one.
    for (uint64_t s = 0; s < slices_.size(); ++s) {
      if (slices_[s])
        allocateReached(s * sliceElements_,
                        std::min(sliceElements_, elements_ - s * sliceElements_));
    }
  }
  const uint64_t sliceCount = (elements + sliceElements_ - 1) / sliceElements_;
  const std::vector<uint64_t> before = planned_;
  // Slices take whole 4-byte words (an odd count of 2-byte filter words is padded), since fills
  // and the shaders work in words.
  planned_.resize(sliceCount);
  slices_.resize(sliceCount);
  bytes_ = 0;
  for (uint64_t s = 0; s < sliceCount; ++s) {
    const uint64_t begin = s * sliceElements_;
    planned_[s] = (std::min(sliceElements_, elements - begin) * elementBytes_ + 3) / 4 * 4;
    bytes_ += planned_[s];
    // Memory a slice already has past its old elements takes the new elements' fill.
    const uint64_t from = s < before.size() ? before[s] : 0;
    const uint64_t to = std::min(planned_[s], slices_[s].bytes());
    if (fill && fill != fill_ && to > from) {
      context_.run([&](VkCommandBuffer commands) {
        vkCmdFillBuffer(commands, slices_[s].handle(), from, to - from, *fill);
      });
    }
  }
  fill_ = fill;
  elements_ = elements;
}

void SlicedArray::allocateReached(uint64_t first, uint64_t count) {
  if (count == 0) return;
  const uint64_t end = first + count;
  const uint64_t lastSlice = (end - 1) / sliceElements_;
  for (uint64_t s = first / sliceElements_; s <= lastSlice && s < slices_.size(); ++s) {
    const uint64_t reached = std::min(end - s * sliceElements_, sliceElements_);
    const uint64_t needed = std::min(planned_[s], (reached * elementBytes_ + 3) / 4 * 4);
    const uint64_t old = slices_[s].bytes();
    if (old >= needed) continue;
    // Doubling from kFirstSliceBytes: the pool's first fit fills slots from the start, so a
    // slice's memory follows the points stored in it, and each element is copied a few times
    // at most as its slice grows.
    uint64_t bytes = std::max(kFirstSliceBytes, 2 * old);
    while (bytes < needed) bytes *= 2;
    bytes = std::min(bytes, planned_[s]);
    VulkanBuffer slice(context_, bytes, VulkanBuffer::Kind::Device, what_);
    if (old > 0 || fill_) {
      context_.run([&](VkCommandBuffer commands) {
        if (old > 0) {
          const VkBufferCopy region{.srcOffset = 0, .dstOffset = 0, .size = old};
          vkCmdCopyBuffer(commands, slices_[s].handle(), slice.handle(), 1, &region);
        }
        if (fill_) vkCmdFillBuffer(commands, slice.handle(), old, bytes - old, *fill_);
      });
    }
    slices_[s] = std::move(slice);
  }
}

void SlicedArray::allocateLike(const SlicedArray& other) {
  for (size_t s = 0; s < other.slices_.size() && s < slices_.size(); ++s) {
    const uint64_t held = std::min(other.slices_[s].bytes() / other.elementBytes_, sliceElements_);
    if (held > 0) allocateReached(s * sliceElements_, held);
  }
}

template <typename Visit>
void SlicedArray::forPieces(uint64_t first, uint64_t count, Visit&& visit) const {
  for (uint64_t done = 0; done < count;) {
    const uint64_t element = first + done;
    const uint64_t slice = element / sliceElements_;
    const uint64_t offset = element % sliceElements_;
    const uint64_t piece = std::min(count - done, sliceElements_ - offset);
    // Only the elements the slice has memory for (its first ones: it grows from its start).
    const uint64_t held = slices_[slice].bytes() / elementBytes_;
    if (offset < held) {
      visit(slices_[slice], offset * elementBytes_, done, std::min(piece, held - offset));
    }
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

uint64_t SlicedArray::allocatedBytes() const {
  uint64_t bytes = 0;
  for (const VulkanBuffer& slice : slices_) bytes += slice.bytes();
  return bytes;
}

std::vector<VkDeviceAddress> SlicedArray::addresses() const {
  std::vector<VkDeviceAddress> out;
  for (const VulkanBuffer& slice : slices_) out.push_back(slice.address());  // 0 where none
  return out;
}

}  // namespace pcv::vk
