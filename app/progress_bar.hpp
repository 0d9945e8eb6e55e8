/// @brief A terminal progress bar for long work (loading a file, laying out a set of points):
/// drawn on stderr, only when stderr is a terminal, and only once the work has taken longer than
/// a second.
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <thread>

#include "pcv/io/point_cloud_reader.hpp"

namespace pcv::app {

/// Watches a fraction from a thread of its own while it lives; erases its line when destroyed.
class ProgressBar {
 public:
  /// `fraction` (0..1) is called from the bar's thread: it must read atomics only.
  ProgressBar(std::function<double()> fraction, std::string label);
  ProgressBar(const LoadProgress& progress, std::string label);
  ~ProgressBar();
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

 private:
  void run();
  std::function<double()> fraction_;
  std::string label_;
  std::atomic<bool> done_{false};
  bool drawn_ = false;
  std::thread thread_;
};

}  // namespace pcv::app
