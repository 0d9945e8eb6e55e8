/// @brief The progress bar of a conversion ("converting [####  ] 12.3 M points/s, 0:41 left"):
/// what `pcv convert` draws and what the commands that convert a file for the COPC cache draw.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "options/progress_bar.hpp"
#include "pcv/io/copc_writer.hpp"

namespace pcv::app {

/// "12.3 M points/s, 0:41 left" after `figures`, for points done of a total after `seconds`.
ProgressState conversionState(double fraction, double pointsDone, double seconds,
                              std::string figures);

/// "12.3 M" for a count of points.
std::string millions(uint64_t points);

/// A bar over a COPC conversion's counters: reading (and partitioning) is half the work,
/// building and encoding the other half. `progress` must outlive the bar.
std::unique_ptr<ProgressBar> copcConversionBar(const CopcWriteProgress& progress);

}  // namespace pcv::app
