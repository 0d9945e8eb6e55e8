/// @brief A terminal progress bar for long work (loading a file, laying out a set of points,
/// converting): drawn on stderr, only when stderr is a terminal, and only once the work has
/// taken longer than a second.
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <thread>

#include "pcv/io/point_cloud_reader.hpp"

namespace pcv::app {

/// What the bar shows at a moment: how far the work is and a line of figures after the bar.
struct ProgressState {
  double fraction = 0.0;  ///< 0..1
  std::string details;    ///< "12.3 M points/s, 0:41 left"; may be empty
};

/// Samples the work from a thread of its own while it lives; erases its line when destroyed.
class ProgressBar {
 public:
  /// A file load: the fraction of its bytes read.
  ProgressBar(const LoadProgress& progress, std::string label);
  /// Any work: `sample` is called about ten times a second from the bar's thread, with the
  /// seconds since the bar was made.
  ProgressBar(std::function<ProgressState(double seconds)> sample, std::string label);
  ~ProgressBar();
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

 private:
  void run();
  std::function<ProgressState(double seconds)> sample_;
  std::string label_;
  std::atomic<bool> done_{false};
  bool drawn_ = false;
  std::thread thread_;
};

/// "0:41", "1:02:03".
std::string formatDuration(double seconds);

}  // namespace pcv::app
