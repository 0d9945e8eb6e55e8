/// @brief The interactive viewer (`pcv`, `pcv view`): the seed's window, scene and controls,
/// over any backend, through the cheapest interop path this machine has.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "pcv/io/point_cloud_reader.hpp"
#include "pcv/raster/render_settings.hpp"
#include "pcv/core/point_coloring.hpp"
#include "pcv/scene/cylinders.hpp"

namespace pcv::app {

struct ViewerOptions {
  uint64_t pointCount = kSeedPointCount;  ///< cylinder points
  uint64_t seed = 1;                      ///< cylinder scene seed
  std::string backend = "auto";           ///< auto, cuda, cpu
  std::string method;                     ///< empty = the backend's default
  std::string interop = "auto";           ///< auto, surface, pbo, host
  int widthPx = 1280;                     ///< initial window size (screen coordinates)
  int heightPx = 720;
  uint64_t frames = 0;                 ///< exit after this many frames; 0 = run until closed
  std::string script;                  ///< input script path (see input_script.hpp)
  double frameDtSeconds = 0.0;         ///< > 0: simulated clock, each frame advances this much
  std::string screenshotDir = ".";     ///< where F12 writes
  uint32_t background = kOpaqueBlack;  ///< packed RGBA8 (the seed's black)
  QualitySettings quality;             ///< point size, EDL, HQ ... (defaults: the seed's look)
  bool edlAuto = true;  ///< --edl auto: eye-dome lighting follows the cloud (on without colour)
  std::vector<std::string> files;  ///< point cloud files, loaded in the background and merged;
                                   ///< empty shows the cylinder scene
  ColoringOptions coloring;        ///< how loaded files are coloured (the panel changes it)
  ReadOptions read;                ///< what to read of each file (--scan; the panel changes it)
};

/// Opens the window and runs until it is closed (or `frames` are done). Throws pcv::Error
/// (UnavailableError when there is no display).
void runViewer(const ViewerOptions& options);

}  // namespace pcv::app
