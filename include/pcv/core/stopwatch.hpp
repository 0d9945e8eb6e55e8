/// @brief Wall-clock seconds for progress lines, reports and benchmarks: one steady clock and
/// one conversion, so every figure pcv prints is measured the same way.
#pragma once

#include <chrono>

namespace pcv {

using SteadyClock = std::chrono::steady_clock;

/// Seconds (fractional) from `start` to now, on the steady clock.
inline double secondsSince(SteadyClock::time_point start) {
  return std::chrono::duration<double>(SteadyClock::now() - start).count();
}

}  // namespace pcv
