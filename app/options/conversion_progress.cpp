#include "options/conversion_progress.hpp"

#include <algorithm>
#include <cstdio>

namespace pcv::app {

ProgressState conversionState(double fraction, double pointsDone, double seconds,
                              std::string figures) {
  char rate[64];
  std::snprintf(rate, sizeof rate, ", %.1f M points/s", pointsDone / std::max(seconds, 1e-3) / 1e6);
  figures += rate;
  if (fraction > 0.01)
    figures += ", " + formatDuration(seconds * (1.0 - fraction) / fraction) + " left";
  return {.fraction = fraction, .details = figures};
}

std::string millions(uint64_t points) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f M", double(points) / 1e6);
  return text;
}

std::unique_ptr<ProgressBar> copcConversionBar(const CopcWriteProgress& progress) {
  return std::make_unique<ProgressBar>(
      [&progress](double seconds) {
        const uint64_t total = std::max<uint64_t>(1, progress.pointsTotal);
        const uint64_t read = progress.pointsRead, written = progress.pointsWritten;
        const double fraction = double(read + written) / double(2 * total);
        return conversionState(fraction, double(read + written) / 2.0, seconds,
                               millions(read) + " points read, " +
                                   std::to_string(progress.nodesWritten.load()) + " nodes written");
      },
      "converting");
}

}  // namespace pcv::app
