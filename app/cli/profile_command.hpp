/// @brief `pcv profile IN... --line x0,y0,x1,y1[,...] --width W --out P.csv|P.las|P.laz|P.png`:
/// the points of a corridor along a polyline, as a table, a point file or an image of distance
/// against height.
#pragma once

#include <CLI/CLI.hpp>

namespace pcv::app {

/// Adds the `profile` subcommand to `cli`.
void addProfileCommand(CLI::App& cli);

}  // namespace pcv::app
