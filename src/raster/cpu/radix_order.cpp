// A most-significant-digit-first radix sort. A pass moves a range of keys (and their indices)
// from one side of the buffers to the other at the same positions, bucket by bucket of one
// digit: it counts the digits of each part of the range, then each part scatters its keys in
// order to offsets of its own in the buckets (bucket-major, part-minor), so equal digits keep
// their order. Each bucket is then sorted by the next digit down the same way, and short ones by
// insertion. Every step is stable, so the permutation is the one a std::stable_sort by key gives,
// whatever the number of threads.
//
// The first pass over all keys, and any bucket holding more than a thread's share of them, is
// split over all threads; the other buckets are sorted each on one thread, taken by the threads
// as they come free. After the first pass or two a bucket fits in the cache, so the keys cross
// main memory a few times instead of once per digit.
#include "radix_order.hpp"

#include <algorithm>
#include <bit>
#include <numeric>
#include <vector>

#include "pcv/core/parallel.hpp"
#include "pcv/core/uninitialized_vector.hpp"

namespace pcv {
namespace {

/// Bits a pass sorts at most: 2^11 buckets keep a part's counts and offsets (16 KiB each) in the
/// first-level cache.
constexpr int kMaxDigitBits = 11;
/// Keys a part of a pass split over threads has at least, so small ranges do not wait on
/// threads that have little to do.
constexpr uint64_t kMinPartKeys = uint64_t(1) << 16;
/// Ranges this short are sorted by insertion: counting digits would cost more than the keys.
constexpr uint64_t kInsertionKeys = 48;

/// The bits [shift, shift + bits) of a key.
struct Digit {
  int shift;
  int bits;
  uint64_t buckets() const { return uint64_t(1) << bits; }
  uint64_t bucketOf(uint64_t key) const { return (key >> shift) & (buckets() - 1); }
};

/// The digit just below the bits a range's keys already agree on, for a range of `count` keys:
/// fewer buckets for short ranges, whose counts would cost more than their keys.
Digit nextDigit(int bitsLeft, uint64_t count) {
  const int wanted = std::clamp(int(std::bit_width(count)) - 3, 4, kMaxDigitBits);
  const int bits = std::min(bitsLeft, wanted);
  return {bitsLeft - bits, bits};
}

/// Keys [begin, end) of the array, whose keys agree on every bit from `bitsLeft` up, held on
/// `side` (0: the caller's keys and order, 1: the scratch buffers).
struct Range {
  uint64_t begin;
  uint64_t end;
  int side;
  int bitsLeft;
  uint64_t size() const { return end - begin; }
};

/// Contiguous parts of a range, one a thread.
struct Parts {
  uint64_t begin;
  uint64_t count;
  unsigned size;
  uint64_t partBegin(unsigned part) const { return begin + count * part / size; }
  uint64_t partEnd(unsigned part) const { return begin + count * (part + 1) / size; }
};

/// Calls body(part) for every part, each on a thread of its own.
template <typename Body>
void forEachPart(const Parts& parts, const Body& body) {
  if (parts.size == 1) return body(0u);
  parallelFor(
      parts.size,
      [&](uint64_t first, uint64_t last) {
        for (uint64_t part = first; part < last; ++part) body(unsigned(part));
      },
      1);
}

/// The bits in which some keys differ from the others; the rest need no sorting.
uint64_t varyingBits(std::span<const uint64_t> keys, const Parts& parts) {
  std::vector<uint64_t> anySet(parts.size, 0), allSet(parts.size, ~uint64_t(0));
  forEachPart(parts, [&](unsigned part) {
    uint64_t any = 0, all = ~uint64_t(0);
    for (uint64_t i = parts.partBegin(part); i < parts.partEnd(part); ++i) {
      any |= keys[i];
      all &= keys[i];
    }
    anySet[part] = any;
    allSet[part] = all;
  });
  uint64_t any = 0, all = ~uint64_t(0);
  for (unsigned part = 0; part < parts.size; ++part) {
    any |= anySet[part];
    all &= allSet[part];
  }
  return any & ~all;
}

/// One part's scatter: keys and indices to their buckets' next slots on the other side. Before
/// the first pass a key's index is its position, not yet written anywhere.
template <bool kIndexIsPosition>
void scatterPart(const uint64_t* keysIn, const uint32_t* indicesIn, uint64_t* keysOut,
                 uint32_t* indicesOut, uint64_t begin, uint64_t end, Digit digit,
                 uint64_t* nextSlot) {
  for (uint64_t i = begin; i < end; ++i) {
    const uint64_t key = keysIn[i];
    const uint64_t slot = nextSlot[digit.bucketOf(key)]++;
    keysOut[slot] = key;
    indicesOut[slot] = kIndexIsPosition ? uint32_t(i) : indicesIn[i];
  }
}

/// Sorts the keys into `order`; one per call of stableRadixOrder.
class RadixSort {
 public:
  RadixSort(std::span<uint64_t> keys, std::span<uint32_t> order, std::span<uint32_t> indexScratch)
      : count_(keys.size()),
        threads_(unsigned(std::clamp<uint64_t>(count_ / kMinPartKeys, 1, workerCount()))),
        otherKeys_(count_),
        otherIndices_(indexScratch.size() == count_ ? 0 : count_),
        keys_{keys.data(), otherKeys_.data()},
        indices_{order.data(),
                 indexScratch.size() == count_ ? indexScratch.data() : otherIndices_.data()} {}

  /// Sorts keys that differ in no bit from `bitsLeft` up.
  void run(int bitsLeft) {
    std::vector<Range> buckets;
    sortInParallel({0, count_, 0, bitsLeft}, true, buckets);
    // The longest first, so that no thread is left with a long one at the end.
    std::sort(buckets.begin(), buckets.end(),
              [](const Range& a, const Range& b) { return a.size() > b.size(); });
    parallelForEachDynamic(buckets.size(), [&](size_t i) { sortOnThisThread(buckets[i]); });
  }

 private:
  /// Sorts `range` by its next digit with every thread, then the buckets of more than a thread's
  /// share the same way; the others are added to `buckets`, to be sorted each on one thread.
  void sortInParallel(Range range, bool indexIsPosition, std::vector<Range>& buckets) {
    const Parts parts{range.begin, range.size(),
                      unsigned(std::clamp<uint64_t>(range.size() / kMinPartKeys, 1, threads_))};
    for (;;) {
      if (range.bitsLeft == 0) return finish(range);
      const Digit digit = nextDigit(range.bitsLeft, UINT64_MAX);
      std::vector<uint64_t> bucketStarts;
      if (!scatter(range, digit, parts, indexIsPosition, bucketStarts)) {
        range.bitsLeft = digit.shift;
        continue;
      }
      for (uint64_t b = 0; b < digit.buckets(); ++b) {
        const Range bucket{bucketStarts[b], bucketStarts[b + 1], 1 - range.side, digit.shift};
        if (bucket.size() > std::max(count_ / threads_, 2 * kMinPartKeys)) {
          sortInParallel(bucket, false, buckets);
        } else if (bucket.size() > 0) {
          buckets.push_back(bucket);
        }
      }
      return;
    }
  }

  /// Sorts `range` by its digits from the highest down, on the calling thread.
  void sortOnThisThread(Range range) {
    const Parts parts{range.begin, range.size(), 1};
    for (;;) {
      if (range.size() <= kInsertionKeys) return sortByInsertion(range);
      if (range.bitsLeft == 0) return finish(range);
      const Digit digit = nextDigit(range.bitsLeft, range.size());
      std::vector<uint64_t> bucketStarts;
      if (!scatter(range, digit, parts, false, bucketStarts)) {
        range.bitsLeft = digit.shift;
        continue;
      }
      for (uint64_t b = 0; b < digit.buckets(); ++b) {
        const Range bucket{bucketStarts[b], bucketStarts[b + 1], 1 - range.side, digit.shift};
        if (bucket.size() > 0) sortOnThisThread(bucket);
      }
      return;
    }
  }

  /// Moves `range` to the other side in the order of `digit`, stably, and sets bucketStarts to
  /// the buckets' first positions and the range's end; false, moving nothing, when all its keys
  /// have the same digit.
  bool scatter(const Range& range, Digit digit, const Parts& parts, bool indexIsPosition,
               std::vector<uint64_t>& bucketStarts) {
    const uint64_t buckets = digit.buckets();
    std::vector<uint64_t> slots(parts.size * buckets, 0);
    const uint64_t* keysIn = keys_[range.side];
    forEachPart(parts, [&](unsigned part) {
      uint64_t* counts = slots.data() + part * buckets;
      for (uint64_t i = parts.partBegin(part); i < parts.partEnd(part); ++i)
        ++counts[digit.bucketOf(keysIn[i])];
    });
    // A part's first slot in a bucket: the bucket's start plus the earlier parts' keys in it.
    bucketStarts.resize(buckets + 1);
    uint64_t slot = range.begin;
    for (uint64_t bucket = 0; bucket < buckets; ++bucket) {
      bucketStarts[bucket] = slot;
      for (unsigned part = 0; part < parts.size; ++part) {
        uint64_t& partSlot = slots[part * buckets + bucket];
        const uint64_t inPart = partSlot;
        partSlot = slot;
        slot += inPart;
      }
      if (slot - bucketStarts[bucket] == range.size()) return false;
    }
    bucketStarts[buckets] = range.end;
    const int to = 1 - range.side;
    forEachPart(parts, [&](unsigned part) {
      const uint64_t begin = parts.partBegin(part), end = parts.partEnd(part);
      uint64_t* nextSlot = slots.data() + part * buckets;
      if (indexIsPosition) {
        scatterPart<true>(keysIn, nullptr, keys_[to], indices_[to], begin, end, digit, nextSlot);
      } else {
        scatterPart<false>(keysIn, indices_[range.side], keys_[to], indices_[to], begin, end, digit,
                           nextSlot);
      }
    });
    return true;
  }

  /// A range whose keys are all equal: its indices are in order already, wherever they are.
  void finish(const Range& range) {
    if (range.side == 0) return;
    std::copy(indices_[1] + range.begin, indices_[1] + range.end, indices_[0] + range.begin);
  }

  /// A short range sorted in place by insertion (stable), its indices then moved to the order.
  void sortByInsertion(const Range& range) {
    uint64_t* keys = keys_[range.side];
    uint32_t* indices = indices_[range.side];
    for (uint64_t i = range.begin + 1; i < range.end; ++i) {
      const uint64_t key = keys[i];
      const uint32_t index = indices[i];
      uint64_t j = i;
      for (; j > range.begin && keys[j - 1] > key; --j) {
        keys[j] = keys[j - 1];
        indices[j] = indices[j - 1];
      }
      keys[j] = key;
      indices[j] = index;
    }
    finish(range);
  }

  uint64_t count_;
  unsigned threads_;
  UninitializedVector<uint64_t> otherKeys_;
  UninitializedVector<uint32_t> otherIndices_;
  uint64_t* keys_[2];
  uint32_t* indices_[2];
};

}  // namespace

void stableRadixOrder(std::span<uint64_t> keys, std::span<uint32_t> order,
                      std::span<uint32_t> indexScratch) {
  const uint64_t count = keys.size();
  const Parts parts{0, count,
                    unsigned(std::clamp<uint64_t>(count / kMinPartKeys, 1, workerCount()))};
  const uint64_t varying = count > 1 ? varyingBits(keys, parts) : 0;
  if (varying == 0) {  // all keys equal: the order is the identity
    parallelFor(count, [&](uint64_t begin, uint64_t end) {
      std::iota(order.begin() + begin, order.begin() + end, uint32_t(begin));
    });
    return;
  }
  RadixSort(keys, order, indexScratch).run(int(std::bit_width(varying)));
}

}  // namespace pcv
