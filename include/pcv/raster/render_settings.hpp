/// @brief What the renderer is asked to draw, besides the points and the view. The viewer's
/// panel and the command line edit this struct; the backends only read it.
#pragma once

#include <cstdint>
#include <optional>

#include "pcv/core/point.hpp"
#include "pcv/core/point_filter.hpp"
#include "pcv/raster/clip_settings.hpp"
#include "pcv/raster/quality_settings.hpp"
#include "pcv/raster/raster_method.hpp"

namespace pcv {

struct RenderSettings {
  std::optional<RasterMethod> method;  ///< empty: the renderer's default (the fastest it has)
  uint32_t background = kOpaqueBlack;  ///< packed RGBA8 of pixels no point reaches (seed: black)
  QualitySettings quality;             ///< point size, EDL, blending ...; defaults change nothing
  ClipSettings clip;                   ///< the box and slab drawn (world coordinates); none by
                                       ///< default. Drawn from the compact layout only.
  /// Classes, returns and one attribute range drawn (all by default). Compact layout only; a set
  /// without the data a filter reads (Renderer::setFilterData) draws nothing while it is on.
  PointFilter filter;
};

}  // namespace pcv
