/// @brief `pcv view` (and `pcv` with no subcommand): opens the interactive viewer.
#pragma once

#include <CLI/CLI.hpp>

namespace pcv::app {

/// Adds the `view` subcommand to `cli`; its callback runs the viewer.
void addViewCommand(CLI::App& cli);
/// Runs the viewer with default options (`pcv` with no arguments).
void runDefaultViewer();

}  // namespace pcv::app
