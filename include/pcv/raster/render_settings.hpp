/// @brief What the renderer is asked to draw, besides the points and the view. The viewer's
/// panel and the command line edit this struct; the backends only read it.
#pragma once

#include <cstdint>
#include <string>

#include "pcv/core/point.hpp"
#include "pcv/raster/quality_settings.hpp"

namespace pcv {

struct RenderSettings {
  std::string method;                  ///< backend method name; empty = the backend's default
  uint32_t background = kOpaqueBlack;  ///< packed RGBA8 of pixels no point reaches (seed: black)
  QualitySettings quality;             ///< point size, EDL, blending ...; defaults change nothing
};

}  // namespace pcv
