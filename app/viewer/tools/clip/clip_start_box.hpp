/// @brief The box the Clip tool starts from (X, the Clip section's Box): the middle half of the
/// scene, except along the axis an orthographic view looks down, which keeps the scene's whole
/// extent (a box drawn in plan view clips x and y, never the ground away). GL-free.
#pragma once

#include "pcv/core/bounds.hpp"
#include "pcv/core/camera.hpp"
#include "pcv/raster/clip_settings.hpp"

namespace pcv::app {

/// The world axis (0 x, 1 y, 2 z) an orthographic `camera` looks along (within a degree), or -1
/// for a perspective camera or an oblique view.
int viewAxisOf(const Camera& camera);

/// The middle half of `shown` (world bounds; a unit box around the origin when empty) on every
/// axis but viewAxisOf(camera), which spans all of `shown` and a margin beyond it (the points on
/// its faces stay inside after the renderer's float offsets).
ClipBox startingClipBox(const Box3d& shown, const Camera& camera);

}  // namespace pcv::app
