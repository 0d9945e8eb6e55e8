/// @brief Ctrl+C (SIGINT), SIGTERM and SIGHUP during a long command: the first one sets a flag
/// that the work polls, so that it stops and removes its temporary files; the command then ends
/// as the signal would have ended it. A second signal ends the process at once.
#pragma once

#include <atomic>

namespace pcv::app {

/// Installs the handlers while it lives (one at a time); restores the previous ones after.
class InterruptSignals {
 public:
  /// `stop` is set (with a lock-free store) when a signal arrives.
  explicit InterruptSignals(std::atomic<bool>& stop);
  ~InterruptSignals();
  InterruptSignals(const InterruptSignals&) = delete;
  InterruptSignals& operator=(const InterruptSignals&) = delete;

  /// The signal that arrived, 0 when none did.
  int received() const;
  /// Ends the process by the signal that arrived (its default action), as if it had not been
  /// caught; returns when none arrived.
  void endAsSignalled() const;
};

}  // namespace pcv::app
