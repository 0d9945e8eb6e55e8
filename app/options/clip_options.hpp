/// @brief The clipping flags `pcv render`, `pcv convert`, `pcv bench` and `pcv view` share
/// (--clip-box, --clip-slab, --clip-polygon, --clip-keep), parsed into ClipSettings in one place, and written back as flags so
/// the viewer's "Copy view" reproduces a clipped view.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "pcv/raster/clip_settings.hpp"

namespace pcv::app {

/// The flags as typed; empty strings mean "not given".
struct ClipFlags {
  std::string box;              ///< --clip-box x0,y0,z0,x1,y1,z1 (world coordinates)
  std::string slab;             ///< --clip-slab nx,ny,nz,cx,cy,cz,thickness
  std::string polygon;          ///< --clip-polygon x0,y0,x1,y1,x2,y2[,...] (world x, y)
  std::string keep = "inside";  ///< --clip-keep inside|outside
};

/// Adds the four flags to `command`, writing into `flags` (which must outlive parsing).
void addClipFlags(CLI::App& command, ClipFlags& flags);

/// Checks and converts the flags; throws InputError naming the flag and the value.
ClipSettings clipSettingsFrom(const ClipFlags& flags);

/// "x0,y0,z0,x1,y1,z1": the minimum corner, then the maximum; throws InputError naming the text.
ClipBox parseClipBox(const std::string& text);
/// "nx,ny,nz,cx,cy,cz,thickness"; throws InputError naming the text.
ClipSlab parseClipSlab(const std::string& text);

/// The flags that give `clip` (a polygon only where it is a plan polygon) (" --clip-box ..." with a leading space each), exact to the last
/// bit of every double; empty when nothing is clipped.
std::string clipArguments(const ClipSettings& clip);

}  // namespace pcv::app
