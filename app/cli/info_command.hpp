/// @brief `pcv info FILE...`: format, version, point count, bounds and attributes of each file.
#pragma once

#include <CLI/CLI.hpp>

namespace pcv::app {

/// Adds the `info` subcommand to `cli`. A file that fails to load is reported on stderr and
/// makes the command exit non-zero after the other files were described.
void addInfoCommand(CLI::App& cli);

}  // namespace pcv::app
