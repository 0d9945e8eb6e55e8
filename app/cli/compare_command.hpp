/// @brief `pcv compare A.png B.png`: how many pixels differ between two images of one size, and
/// by how much; measures flicker between consecutive frames of a camera move.
#pragma once

#include <CLI/CLI.hpp>

namespace pcv::app {

/// Adds the `compare` subcommand to `cli`.
void addCompareCommand(CLI::App& cli);

}  // namespace pcv::app
