/// @brief `pcv view [FILE...]` (and `pcv [OPTIONS] [FILE...]` with no subcommand, which main
/// turns into it): opens the interactive viewer, on the given files or the cylinder scene.
#pragma once

#include <CLI/CLI.hpp>

namespace pcv::app {

/// Adds the `view` subcommand to `cli`; its callback runs the viewer.
void addViewCommand(CLI::App& cli);

}  // namespace pcv::app
