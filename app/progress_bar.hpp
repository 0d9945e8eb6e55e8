/// @brief A terminal progress bar for long loads: drawn on stderr, only when stderr is a
/// terminal, and only once a load has taken longer than a second.
#pragma once

#include <atomic>
#include <string>
#include <thread>

#include "pcv/io/point_cloud_reader.hpp"

namespace pcv::app {

/// Watches `progress` from a thread of its own while it lives; erases its line when destroyed.
class ProgressBar {
 public:
  ProgressBar(const LoadProgress& progress, std::string label);
  ~ProgressBar();
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

 private:
  void run();
  const LoadProgress& progress_;
  std::string label_;
  std::atomic<bool> done_{false};
  bool drawn_ = false;
  std::thread thread_;
};

}  // namespace pcv::app
