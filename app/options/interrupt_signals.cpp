// The handler only stores to lock-free atomics, which is all a signal handler may safely do;
// SA_RESETHAND puts the default action back, so a second Ctrl+C ends a stuck process.
#include "options/interrupt_signals.hpp"

#include <csignal>

#include "pcv/core/error.hpp"

namespace pcv::app {
namespace {

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};
std::atomic<bool>* stopFlag = nullptr;
std::atomic<int> receivedSignal{0};
struct sigaction previous[3];
static_assert(std::atomic<bool>::is_always_lock_free && std::atomic<int>::is_always_lock_free);

void onSignal(int signal) {
  receivedSignal.store(signal);
  if (stopFlag) stopFlag->store(true);
}

}  // namespace

InterruptSignals::InterruptSignals(std::atomic<bool>& stop) {
  if (stopFlag) throw Error("InterruptSignals: handlers are already installed");
  stopFlag = &stop;
  receivedSignal = 0;
  struct sigaction action {};
  action.sa_handler = onSignal;
  action.sa_flags = SA_RESETHAND;
  sigemptyset(&action.sa_mask);
  for (int i = 0; i < 3; ++i) sigaction(kSignals[i], &action, &previous[i]);
}

InterruptSignals::~InterruptSignals() {
  for (int i = 0; i < 3; ++i) sigaction(kSignals[i], &previous[i], nullptr);
  stopFlag = nullptr;
}

int InterruptSignals::received() const {
  return receivedSignal.load();
}

void InterruptSignals::endAsSignalled() const {
  const int signal = receivedSignal.load();
  if (signal == 0) return;
  std::signal(signal, SIG_DFL);
  std::raise(signal);
}

}  // namespace pcv::app
