/// @brief `pcv render --gl egl`: the viewer's interop path (map, render, unmap, texture) in a
/// headless EGL context, read back with glReadPixels, so interop is testable with no display.
#pragma once

#include <string>

#include "pcv/core/image.hpp"
#include "pcv/raster/renderer.hpp"

namespace pcv::app {

/// Renders `view` through a FramePresenter in a new EGL context and reads the texture back.
/// `interop` is "auto", "surface", "pbo" or "host". Throws UnavailableError without EGL.
Image renderThroughGl(Renderer& renderer, const ViewTransform& view, const RenderSettings& settings,
                      const std::string& interop);

}  // namespace pcv::app
