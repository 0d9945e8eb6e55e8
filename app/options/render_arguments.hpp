/// @brief The `pcv render` command line that draws a given view: the viewer's "Copy view" puts
/// it on the clipboard, so a view found interactively becomes a reproducible image. Every
/// number is written so it reads back to the same bits, and the image is the viewer's.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "pcv/core/camera.hpp"
#include "pcv/core/point_coloring.hpp"
#include "pcv/io/point_cloud_reader.hpp"
#include "pcv/raster/render_settings.hpp"

namespace pcv::app {

/// Everything `pcv render` must be told to draw what a viewer shows.
struct ViewDescription {
  std::vector<std::string> files;  ///< empty: the cylinders below
  uint64_t demoPoints = 0;         ///< the cylinders' --points
  uint64_t demoSeed = 1;           ///< and --seed
  Camera camera;
  int widthPx = 1280;  ///< the image size
  int heightPx = 720;
  RenderSettings settings;   ///< method, background, quality, clip
  ColoringOptions coloring;  ///< of the files
  ReadOptions read;          ///< --scan
};

/// "pcv render FILES --eye ... --out pcv-view.png"; paths are quoted for a POSIX shell where
/// they need it.
std::string renderCommand(const ViewDescription& view);

/// Degrees that --yaw and --pitch turn back into exactly `radians` (they convert in double and
/// round once to float; a float number of degrees could not reach every float angle).
double degreesReproducing(float radians);

/// The shortest text of degrees that --yaw and --pitch turn back into exactly `radians`:
/// "-30", not degreesReproducing's "-30.000000834826057".
std::string degreesText(float radians);

/// `text` quoted for a POSIX shell when it holds anything but safe characters.
std::string shellQuoted(const std::string& text);

}  // namespace pcv::app
