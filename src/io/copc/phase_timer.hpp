/// @brief Adds the wall time of a scope to a phase's seconds (CopcPhaseTimes): one clock read at
/// each end of a whole phase, cheap enough to leave on in every conversion.
#pragma once

#include <chrono>

namespace pcv::io {

class PhaseTimer {
 public:
  explicit PhaseTimer(double& seconds)
      : seconds_(seconds), start_(std::chrono::steady_clock::now()) {}
  ~PhaseTimer() {
    seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }
  PhaseTimer(const PhaseTimer&) = delete;
  PhaseTimer& operator=(const PhaseTimer&) = delete;

 private:
  double& seconds_;
  std::chrono::steady_clock::time_point start_;
};

/// Runs `body` and adds its wall time to `seconds`; returns what `body` returns.
template <typename Body>
decltype(auto) timed(double& seconds, Body&& body) {
  PhaseTimer timer(seconds);
  return body();
}

}  // namespace pcv::io
