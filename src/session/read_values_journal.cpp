#include "pcv/session/read_values_journal.hpp"

#include <atomic>

#include "pcv/core/parallel.hpp"

namespace pcv {
namespace {

constexpr uint64_t kBlock = uint64_t(1) << 16;

}  // namespace

void ReadValuesJournal::reset(uint64_t points) {
  touched_.clear();
  touched_.shrink_to_fit();
  points_ = 0;
  indices_.clear();
  values_.clear();
  grow(points);
}

void ReadValuesJournal::grow(uint64_t points) {
  if (points <= points_) return;
  const uint64_t before = touched_.size();
  touched_.resize((points + 63) / 64);
  // The last word's bits past the old count are clear already (never set).
  parallelFor(touched_.size() - before, [&](uint64_t begin, uint64_t end) {
    for (uint64_t w = before + begin; w < before + end; ++w) touched_[w] = 0;
  });
  points_ = points;
}

void ReadValuesJournal::keep(std::span<const uint64_t> indices, std::span<const float> values) {
  // Pass 1 marks the points (several blocks may share a word: the bit is set atomically) and
  // notes which were new; pass 2 appends those, in the order given, from per-block offsets.
  std::vector<uint8_t> fresh(indices.size());
  const uint64_t blocks = (indices.size() + kBlock - 1) / kBlock;
  std::vector<uint64_t> freshInBlock(blocks + 1, 0);
  parallelForEachDynamic(blocks, [&](size_t b) {
    const uint64_t end = std::min<uint64_t>(indices.size(), (b + 1) * kBlock);
    uint64_t count = 0;
    for (uint64_t k = b * kBlock; k < end; ++k) {
      const uint64_t i = indices[k];
      const uint64_t bit = uint64_t(1) << (i % 64);
      const uint64_t before =
          std::atomic_ref<uint64_t>(touched_[i / 64]).fetch_or(bit, std::memory_order_relaxed);
      fresh[k] = (before & bit) == 0;
      count += fresh[k];
    }
    freshInBlock[b + 1] = count;
  });
  for (uint64_t b = 0; b < blocks; ++b) freshInBlock[b + 1] += freshInBlock[b];
  const uint64_t at = indices_.size();
  indices_.resize(at + freshInBlock[blocks]);
  values_.resize(indices_.size());
  parallelForEachDynamic(blocks, [&](size_t b) {
    const uint64_t end = std::min<uint64_t>(indices.size(), (b + 1) * kBlock);
    uint64_t to = at + freshInBlock[b];
    for (uint64_t k = b * kBlock; k < end; ++k) {
      if (!fresh[k]) continue;
      indices_[to] = indices[k];
      values_[to] = values[k];
      ++to;
    }
  });
}

void ReadValuesJournal::restore(ScalarAttribute& attribute) const {
  parallelFor(indices_.size(), [&](uint64_t begin, uint64_t end) {
    for (uint64_t k = begin; k < end; ++k) attribute.setValue(indices_[k], values_[k]);
  });
}

}  // namespace pcv
