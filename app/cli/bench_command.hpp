/// @brief `pcv bench`: times every rasterization method per stage over fixed viewpoints, for the
/// comparisons in bench/RESULTS.md.
#pragma once

#include <CLI/CLI.hpp>

namespace pcv::app {

void addBenchCommand(CLI::App& cli);

}  // namespace pcv::app
