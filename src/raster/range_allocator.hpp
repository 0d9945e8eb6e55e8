/// @brief Hands out ranges of a pool's slots (the points and batches of the renderer's sets)
/// and takes them back, first fit, merging freed neighbours, so sets come and go without the
/// pool growing for every one.
#pragma once

#include <cstdint>
#include <map>
#include <optional>

namespace pcv {

class RangeAllocator {
 public:
  /// A range of `count` slots whose start is a multiple of `alignment`, from the free ranges
  /// below capacity(); empty when none is large enough (grow() first).
  std::optional<uint64_t> allocate(uint64_t count, uint64_t alignment = 1);
  /// Gives [first, first + count) back.
  void release(uint64_t first, uint64_t count);
  /// Adds slots [capacity(), newCapacity) to the free ranges.
  void grow(uint64_t newCapacity);
  /// Forgets every range: all of [0, capacity) is free again, and capacity is 0.
  void reset();
  uint64_t capacity() const { return capacity_; }
  /// One past the last slot in use (0 when none is): where a scan over the used slots ends.
  uint64_t usedEnd() const;
  /// Slots in use.
  uint64_t used() const { return used_; }

 private:
  std::map<uint64_t, uint64_t> free_;  // first -> count, disjoint and never adjacent
  uint64_t capacity_ = 0;
  uint64_t used_ = 0;
};

}  // namespace pcv
