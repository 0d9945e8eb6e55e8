// An LSD radix sort: one pass per digit, lowest digit first. A pass counts the digits of each
// part of the array (one part a thread, the same parts in every pass), then each part scatters
// its keys in order to offsets of its own in the digits' buckets (bucket-major, part-minor), so
// equal digits keep their order and the whole sort is stable: the permutation is the one a
// std::stable_sort by key gives, whatever the number of threads.
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
/// first-level cache, and 63-bit Morton codes take 6 passes.
constexpr int kMaxDigitBits = 11;
constexpr uint64_t kMaxBuckets = uint64_t(1) << kMaxDigitBits;
/// Keys a part has at least, so small arrays are not split over threads that wait on each other.
constexpr uint64_t kMinPartKeys = uint64_t(1) << 16;

/// The bits [shift, shift + bits) of a key.
struct Digit {
  int shift;
  int bits;
  uint64_t bucketOf(uint64_t key) const { return (key >> shift) & ((uint64_t(1) << bits) - 1); }
};

/// Contiguous ranges of the array, one a thread; every pass splits it the same way.
struct Parts {
  uint64_t count;
  unsigned size;
  uint64_t begin(unsigned part) const { return count * part / size; }
  uint64_t end(unsigned part) const { return count * (part + 1) / size; }
};

/// Calls body(part) for every part, each on a thread of its own.
template <typename Body>
void forEachPart(const Parts& parts, const Body& body) {
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
    for (uint64_t i = parts.begin(part); i < parts.end(part); ++i) {
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

/// The fewest digits that cover the varying bits: each starts at the lowest varying bit its
/// predecessors leave, so runs of constant bits cost no pass.
std::vector<Digit> digitsOver(uint64_t varying) {
  std::vector<Digit> digits;
  while (varying != 0) {
    const int shift = std::countr_zero(varying);
    const int bits = std::min(kMaxDigitBits, 64 - shift);
    digits.push_back({shift, bits});
    varying = bits + shift >= 64 ? 0 : varying & ~((uint64_t(2) << (shift + bits - 1)) - 1);
  }
  return digits;
}

/// One pass's scatter of a part: keys and indices from `in` to their bucket's next slots.
/// Without indices in (the first pass), a key's index is its position; the last pass writes no
/// keys, which no later pass reads.
template <bool kIndexIsPosition, bool kWriteKeys>
void scatterPart(const uint64_t* keysIn, const uint32_t* indicesIn, uint64_t* keysOut,
                 uint32_t* indicesOut, uint64_t begin, uint64_t end, Digit digit,
                 uint64_t* nextSlot) {
  for (uint64_t i = begin; i < end; ++i) {
    const uint64_t key = keysIn[i];
    const uint64_t slot = nextSlot[digit.bucketOf(key)]++;
    if constexpr (kWriteKeys) keysOut[slot] = key;
    indicesOut[slot] = kIndexIsPosition ? uint32_t(i) : indicesIn[i];
  }
}

}  // namespace

void stableRadixOrder(std::span<uint64_t> keys, std::span<uint32_t> order) {
  const uint64_t count = keys.size();
  const Parts parts{count, unsigned(std::clamp<uint64_t>(count / kMinPartKeys, 1, workerCount()))};
  const std::vector<Digit> digits = count > 1 ? digitsOver(varyingBits(keys, parts))
                                              : std::vector<Digit>{};
  if (digits.empty()) {  // all keys equal: the order is the identity
    parallelFor(count, [&](uint64_t begin, uint64_t end) {
      std::iota(order.begin() + begin, order.begin() + end, uint32_t(begin));
    });
    return;
  }

  // Keys and indices go back and forth between the caller's buffers and these; the indices
  // start in whichever of the two makes the last pass write them into `order`.
  UninitializedVector<uint64_t> otherKeys(digits.size() > 1 ? count : 0);
  UninitializedVector<uint32_t> otherIndices(digits.size() > 1 ? count : 0);
  uint64_t* keysIn = keys.data();
  uint64_t* keysOut = otherKeys.data();
  uint32_t* indicesIn = nullptr;  // the first pass takes a key's position as its index
  uint32_t* indicesOut = digits.size() % 2 == 1 ? order.data() : otherIndices.data();

  std::vector<uint64_t> counts(uint64_t(parts.size) * kMaxBuckets);
  for (size_t pass = 0; pass < digits.size(); ++pass) {
    const Digit digit = digits[pass];
    const uint64_t buckets = uint64_t(1) << digit.bits;
    forEachPart(parts, [&](unsigned part) {
      uint64_t* partCounts = counts.data() + part * kMaxBuckets;
      std::fill(partCounts, partCounts + buckets, 0);
      for (uint64_t i = parts.begin(part); i < parts.end(part); ++i)
        ++partCounts[digit.bucketOf(keysIn[i])];
    });
    // A part's first slot in a bucket: the bucket's start plus the earlier parts' keys in it.
    uint64_t slot = 0;
    for (uint64_t bucket = 0; bucket < buckets; ++bucket) {
      for (unsigned part = 0; part < parts.size; ++part) {
        uint64_t& partCount = counts[part * kMaxBuckets + bucket];
        const uint64_t inPart = partCount;
        partCount = slot;
        slot += inPart;
      }
    }
    const bool first = pass == 0, last = pass + 1 == digits.size();
    forEachPart(parts, [&](unsigned part) {
      uint64_t* nextSlot = counts.data() + part * kMaxBuckets;
      const uint64_t begin = parts.begin(part), end = parts.end(part);
      if (first && last) {
        scatterPart<true, false>(keysIn, indicesIn, keysOut, indicesOut, begin, end, digit,
                                 nextSlot);
      } else if (first) {
        scatterPart<true, true>(keysIn, indicesIn, keysOut, indicesOut, begin, end, digit,
                                nextSlot);
      } else if (last) {
        scatterPart<false, false>(keysIn, indicesIn, keysOut, indicesOut, begin, end, digit,
                                  nextSlot);
      } else {
        scatterPart<false, true>(keysIn, indicesIn, keysOut, indicesOut, begin, end, digit,
                                 nextSlot);
      }
    });
    std::swap(keysIn, keysOut);
    indicesIn = indicesOut;
    indicesOut = indicesOut == order.data() ? otherIndices.data() : order.data();
  }
}

}  // namespace pcv
