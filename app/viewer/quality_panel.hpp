/// @brief The "Quality" section of the viewer's Settings window: point size and shape, hole
/// filling, eye-dome lighting, high quality and background, editing RenderSettings directly.
#pragma once

#include "pcv/raster/render_settings.hpp"

namespace pcv::app {

/// Draws the controls inside the current ImGui window; the next frame renders with the edits.
void drawQualityControls(RenderSettings& settings);

}  // namespace pcv::app
