/// @brief The colouring flags `pcv render` and `pcv view` share (--color, --color-attribute,
/// --color-map, --color-range), turned into ColoringOptions in one place so both read alike.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "pcv/core/point_coloring.hpp"

namespace pcv::app {

/// The flags as typed; empty strings mean "not given".
struct ColoringFlags {
  std::string mode = "rgb";  ///< --color
  std::string attribute;     ///< --color-attribute; implies --color attribute
  std::string map;           ///< --color-map; empty: the mode's default
  std::string range;         ///< --color-range MIN,MAX; empty: 2nd-98th percentile
};

/// Adds the four flags to `command`, writing into `flags` (which must outlive parsing).
void addColoringFlags(CLI::App& command, ColoringFlags& flags);

/// Checks and converts the flags; throws InputError ("--color attribute needs
/// --color-attribute NAME", a bad map name or range).
ColoringOptions coloringOptionsFrom(const ColoringFlags& flags);

/// Says on stderr how the points were coloured where it is not what was asked or needs a
/// legend: the fallback and why, the attribute's map and range.
void reportColoring(const Coloring& used);

}  // namespace pcv::app
