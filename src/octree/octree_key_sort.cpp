// Keys are sorted by their differing bits only (a subtree's keys share their top bits). The first
// pass scatters into 4096 buckets from per-thread histograms, so it needs no buffer beyond the
// outputs; each bucket is then sorted in place, 8 bits at a time, by cycling elements into their
// digit's slot, until buckets are small enough for a comparison sort.
#include "octree_key_sort.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <numeric>
#include <utility>
#include <vector>

#include "pcv/core/parallel.hpp"
#include "pcv/core/scatter_offsets.hpp"

namespace pcv {
namespace {

constexpr int kTopDigitBits = 12;
constexpr size_t kComparisonSortMax = 512;

void comparisonSort(uint64_t* keys, uint32_t* order, size_t n) {
  if (n < 2) return;
  thread_local std::vector<std::pair<uint64_t, uint32_t>> pairs;
  pairs.resize(n);
  for (size_t i = 0; i < n; ++i) pairs[i] = {keys[i], order[i]};
  std::sort(pairs.begin(), pairs.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  for (size_t i = 0; i < n; ++i) {
    keys[i] = pairs[i].first;
    order[i] = pairs[i].second;
  }
}

/// Sorts n keys (and their order entries) that agree above bit `bits`.
void flagSort(uint64_t* keys, uint32_t* order, size_t n, int bits) {
  if (bits <= 0 || n < 2) return;  // equal keys
  if (n <= kComparisonSortMax) {
    comparisonSort(keys, order, n);
    return;
  }
  const int digitBits = std::min(bits, 8);
  const int shift = bits - digitBits;
  const uint64_t mask = (uint64_t(1) << digitBits) - 1;
  const size_t buckets = size_t(1) << digitBits;
  size_t count[256] = {};
  for (size_t i = 0; i < n; ++i) ++count[(keys[i] >> shift) & mask];
  size_t next[256], end[256];
  size_t running = 0;
  for (size_t d = 0; d < buckets; ++d) {
    next[d] = running;
    running += count[d];
    end[d] = running;
  }
  for (size_t d = 0; d < buckets; ++d) {
    while (next[d] < end[d]) {
      uint64_t key = keys[next[d]];
      uint32_t index = order[next[d]];
      size_t digit = (key >> shift) & mask;
      // Carry the element to its bucket's next free slot, taking up what lay there, until one
      // that belongs here comes back.
      while (digit != d) {
        std::swap(key, keys[next[digit]]);
        std::swap(index, order[next[digit]]);
        ++next[digit];
        digit = (key >> shift) & mask;
      }
      keys[next[d]] = key;
      order[next[d]] = index;
      ++next[d];
    }
  }
  size_t begin = 0;
  for (size_t d = 0; d < buckets; ++d) {
    flagSort(keys + begin, order + begin, count[d], shift);
    begin += count[d];
  }
}

}  // namespace

void sortOctreeKeys(std::span<const uint64_t> keys, std::span<uint64_t> sortedKeys,
                    std::span<uint32_t> order) {
  const size_t n = keys.size();
  if (n == 0) return;
  const unsigned threads = unsigned(std::min<uint64_t>(workerCount(), n / 65536 + 1));
  auto rangeOf = [&](unsigned t) { return std::pair{n * t / threads, n * (t + 1) / threads}; };
  std::vector<uint64_t> differing(threads, 0);
  parallelFor(
      threads,
      [&](uint64_t first, uint64_t last) {
        for (uint64_t t = first; t < last; ++t) {
          const auto [begin, end] = rangeOf(unsigned(t));
          uint64_t bits = 0;
          for (size_t i = begin; i < end; ++i) bits |= keys[i] ^ keys[0];
          differing[t] = bits;
        }
      },
      1);
  const uint64_t anyDifference = std::accumulate(differing.begin(), differing.end(), uint64_t(0),
                                                 [](uint64_t a, uint64_t b) { return a | b; });
  const int bits = anyDifference ? 64 - std::countl_zero(anyDifference) : 0;
  if (bits == 0) {
    std::copy(keys.begin(), keys.end(), sortedKeys.begin());
    std::iota(order.begin(), order.end(), 0u);
    return;
  }
  const int digitBits = std::min(bits, kTopDigitBits);
  const int shift = bits - digitBits;
  const uint64_t mask = (uint64_t(1) << digitBits) - 1;
  const size_t buckets = size_t(1) << digitBits;
  // Per-thread histograms, then each thread's slots in every bucket (threads in order).
  std::vector<uint64_t> slots(size_t(threads) * buckets, 0);
  parallelFor(
      threads,
      [&](uint64_t first, uint64_t last) {
        for (uint64_t t = first; t < last; ++t) {
          const auto [begin, end] = rangeOf(unsigned(t));
          uint64_t* histogram = slots.data() + t * buckets;
          for (size_t i = begin; i < end; ++i) ++histogram[(keys[i] >> shift) & mask];
        }
      },
      1);
  const std::vector<uint64_t> bucketStart = scatterOffsets(slots, buckets, threads);
  parallelFor(
      threads,
      [&](uint64_t first, uint64_t last) {
        for (uint64_t t = first; t < last; ++t) {
          const auto [begin, end] = rangeOf(unsigned(t));
          uint64_t* slot = slots.data() + t * buckets;
          for (size_t i = begin; i < end; ++i) {
            const uint64_t at = slot[(keys[i] >> shift) & mask]++;
            sortedKeys[at] = keys[i];
            order[at] = uint32_t(i);
          }
        }
      },
      1);
  std::atomic<size_t> nextBucket{0};
  parallelFor(
      workerCount(),
      [&](uint64_t, uint64_t) {
        for (size_t b; (b = nextBucket.fetch_add(1)) < buckets;) {
          const uint64_t begin = bucketStart[b];
          flagSort(sortedKeys.data() + begin, order.data() + begin, bucketStart[b + 1] - begin,
                   shift);
        }
      },
      1);
}

}  // namespace pcv
