/// @brief `pcv vpc OUT.vpc INPUTS...`: a QGIS virtual point cloud of tiles, from their headers.
#pragma once

#include <CLI/CLI.hpp>

namespace pcv::app {

/// Adds the `vpc` subcommand to `cli`.
void addVpcCommand(CLI::App& cli);

}  // namespace pcv::app
