/// @brief Per-stage times of the last frame; the benchmark and the GUI panel read the same list.
#pragma once

#include <string>
#include <vector>

namespace pcv {

struct StageTiming {
  std::string stage;    ///< "clear", "raster", "resolve" ...
  double milliseconds;  ///< GPU time from CUDA events, or wall time on the CPU backend
};

using StageTimings = std::vector<StageTiming>;

inline double totalMilliseconds(const StageTimings& timings) {
  double total = 0.0;
  for (const auto& t : timings) total += t.milliseconds;
  return total;
}

}  // namespace pcv
