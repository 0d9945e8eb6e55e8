/// @brief The CPU twins of the CUDA atomics the rasterizer uses, on std::atomic_ref, and a
/// stage clock that fills StageTimings with wall times.
#pragma once

#include <atomic>
#include <chrono>

#include "pcv/core/stage_timings.hpp"

namespace pcv::cpu {

/// Lowers `slot` to `value` if smaller; CUDA's atomicMin. Reads first so the common case
/// (already closer) costs no write.
template <typename Word>
inline void atomicMinimumOf(Word& slot, Word value) {
  std::atomic_ref<Word> ref(slot);
  Word current = ref.load(std::memory_order_relaxed);
  while (value < current && !ref.compare_exchange_weak(current, value, std::memory_order_relaxed)) {
  }
}

/// CUDA's atomicAdd on unsigned integers: exact and order-independent.
template <typename Word>
inline void atomicAddTo(Word& slot, Word value) {
  std::atomic_ref<Word>(slot).fetch_add(value, std::memory_order_relaxed);
}

class WallStageClock {
 public:
  enum Start { kClear, kKeep };  ///< a new frame's timings, or more stages of the same frame
  explicit WallStageClock(StageTimings& timings, Start start = kClear) : timings_(timings) {
    if (start == kClear) timings_.clear();
  }
  void finish(const char* stage) {
    const auto now = std::chrono::steady_clock::now();
    timings_.push_back({stage, std::chrono::duration<double, std::milli>(now - start_).count()});
    start_ = now;
  }

 private:
  StageTimings& timings_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace pcv::cpu
