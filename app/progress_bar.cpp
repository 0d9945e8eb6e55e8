#include "progress_bar.hpp"

#include <chrono>
#include <cstdio>

#include <unistd.h>

namespace pcv::app {

ProgressBar::ProgressBar(std::function<double()> fraction, std::string label)
    : fraction_(std::move(fraction)), label_(std::move(label)) {
  if (::isatty(STDERR_FILENO)) thread_ = std::thread([this] { run(); });
}

ProgressBar::ProgressBar(const LoadProgress& progress, std::string label)
    : ProgressBar([&progress] { return progress.fraction(); }, std::move(label)) {}

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
    if (done_ || steady_clock::now() - start < seconds(1)) continue;
    constexpr int kWidth = 40;  // characters of bar
    const double fraction = fraction_();
    const int filled = int(fraction * kWidth);
    std::string bar(size_t(filled), '#');
    bar.resize(kWidth, '.');
    // The seconds so far: work reported in a few large steps still shows it is moving.
    const double seconds = duration<double>(steady_clock::now() - start).count();
    std::fprintf(stderr, "\r%s [%s] %3d%% %4.0f s", label_.c_str(), bar.c_str(),
                 int(fraction * 100.0), seconds);
    std::fflush(stderr);
    drawn_ = true;
  }
}

}  // namespace pcv::app
