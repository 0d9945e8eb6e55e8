#include "pcv/session/read_values_journal.hpp"

#include <atomic>

#include "pcv/core/parallel.hpp"

namespace pcv {

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
  // The points are marked on all cores (several threads may share a word of the bits: each bit
  // is set atomically), noting which were new; those are then appended in the order given.
  std::vector<uint8_t> fresh(indices.size());
  parallelFor(indices.size(), [&](uint64_t begin, uint64_t end) {
    for (uint64_t k = begin; k < end; ++k) {
      const uint64_t i = indices[k];
      const uint64_t bit = uint64_t(1) << (i % 64);
      const uint64_t before =
          std::atomic_ref<uint64_t>(touched_[i / 64]).fetch_or(bit, std::memory_order_relaxed);
      fresh[k] = (before & bit) == 0;
    }
  });
  const uint64_t at = indices_.size();
  parallelKeepInOrder(
      indices.size(), [&](uint64_t k) { return fresh[k] != 0; },
      [&](uint64_t total) {
        indices_.resize(at + total);
        values_.resize(at + total);
      },
      [&](uint64_t k, uint64_t rank) {
        indices_[at + rank] = indices[k];
        values_[at + rank] = values[k];
      });
}

void ReadValuesJournal::restore(ScalarAttribute& attribute) const {
  parallelFor(indices_.size(), [&](uint64_t begin, uint64_t end) {
    for (uint64_t k = begin; k < end; ++k) attribute.setValue(indices_[k], values_[k]);
  });
}

}  // namespace pcv
