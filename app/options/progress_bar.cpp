#include "options/progress_bar.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include <unistd.h>

namespace pcv::app {

ProgressBar::ProgressBar(const LoadProgress& progress, std::string label)
    : ProgressBar([&progress](double) { return ProgressState{.fraction = progress.fraction()}; },
                  std::move(label)) {}

ProgressBar::ProgressBar(std::function<ProgressState(double seconds)> sample, std::string label)
    : sample_(std::move(sample)), label_(std::move(label)) {
  if (::isatty(STDERR_FILENO)) thread_ = std::thread([this] { run(); });
}

ProgressBar::~ProgressBar() {
  done_ = true;
  if (thread_.joinable()) thread_.join();
  if (drawn_) std::fprintf(stderr, "\r\033[K");
}

void ProgressBar::run() {
  using namespace std::chrono;
  const auto start = steady_clock::now();
  while (!done_) {
    std::this_thread::sleep_for(milliseconds(100));
    const double seconds = duration<double>(steady_clock::now() - start).count();
    if (done_ || seconds < 1.0) continue;
    constexpr int kWidth = 40;  // characters of bar
    ProgressState state = sample_(seconds);
    // The seconds so far where nothing else is said: work reported in a few large steps still
    // shows that it is moving.
    if (state.details.empty()) state.details = formatDuration(seconds);
    const double fraction = std::clamp(state.fraction, 0.0, 1.0);
    const int filled = int(fraction * kWidth);
    std::string bar(size_t(filled), '#');
    bar.resize(kWidth, '.');
    std::fprintf(stderr, "\r%s [%s] %3d%% %s\033[K", label_.c_str(), bar.c_str(),
                 int(fraction * 100.0), state.details.c_str());
    std::fflush(stderr);
    drawn_ = true;
  }
}

std::string formatDuration(double seconds) {
  const long total = std::isfinite(seconds) && seconds > 0 ? long(std::lround(seconds)) : 0;
  char text[32];
  if (total >= 3600) {
    std::snprintf(text, sizeof text, "%ld:%02ld:%02ld", total / 3600, total / 60 % 60, total % 60);
  } else {
    std::snprintf(text, sizeof text, "%ld:%02ld", total / 60, total % 60);
  }
  return text;
}

}  // namespace pcv::app
