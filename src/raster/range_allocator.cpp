#include "range_allocator.hpp"

#include <iterator>

namespace pcv {

std::optional<uint64_t> RangeAllocator::allocate(uint64_t count, uint64_t alignment) {
  if (count == 0) return std::nullopt;
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    const auto [first, length] = *it;
    const uint64_t start = (first + alignment - 1) / alignment * alignment;
    if (start - first + count > length) continue;
    free_.erase(it);
    if (start > first) free_[first] = start - first;
    if (start + count < first + length) free_[start + count] = first + length - start - count;
    used_ += count;
    return start;
  }
  return std::nullopt;
}

void RangeAllocator::release(uint64_t first, uint64_t count) {
  if (count == 0) return;
  used_ -= count;
  auto next = free_.lower_bound(first);
  if (next != free_.end() && first + count == next->first) {
    count += next->second;
    next = free_.erase(next);
  }
  if (next != free_.begin()) {
    const auto previous = std::prev(next);
    if (previous->first + previous->second == first) {
      previous->second += count;
      return;
    }
  }
  free_[first] = count;
}

void RangeAllocator::grow(uint64_t newCapacity) {
  if (newCapacity <= capacity_) return;
  const uint64_t added = newCapacity - capacity_;
  const uint64_t start = capacity_;
  capacity_ = newCapacity;
  used_ += added;  // release() counts them back out
  release(start, added);
}

void RangeAllocator::reset() {
  free_.clear();
  capacity_ = 0;
  used_ = 0;
}

uint64_t RangeAllocator::usedEnd() const {
  if (used_ == 0) return 0;
  // The free range that reaches the capacity, if any, is the unused tail.
  if (!free_.empty()) {
    const auto last = std::prev(free_.end());
    if (last->first + last->second == capacity_) return last->first;
  }
  return capacity_;
}

}  // namespace pcv
