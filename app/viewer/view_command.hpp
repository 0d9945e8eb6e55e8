/// @brief `pcv view [FILE...]` (and `pcv [FILE...]` with no subcommand): opens the interactive
/// viewer, on the given files or the cylinder scene.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace pcv::app {

/// Adds the `view` subcommand to `cli`; its callback runs the viewer.
void addViewCommand(CLI::App& cli);
/// Runs the viewer with default options on `files` (`pcv` or `pcv FILE...`).
void runDefaultViewer(const std::vector<std::string>& files);

}  // namespace pcv::app
