/// @brief Rendering a view of a scene as it will finally look: a streamed source is given frames
/// (node selection, decodes taken) until every node the view wants is resident or a time
/// limit passes; an in-core scene is drawn at once. What `pcv render` writes and a script's
/// screenshot of a still view.
#pragma once

#include <cstdint>

#include "pcv/core/camera.hpp"
#include "pcv/raster/render_settings.hpp"
#include "pcv/raster/renderer.hpp"
#include "pcv/session/scene.hpp"

namespace pcv {

struct ConvergedRender {
  bool converged = true;           ///< false: the time limit passed first
  double firstImageSeconds = 0.0;  ///< from the call to the first frame drawn
  uint64_t firstImagePoints = 0;   ///< points the first frame drew
  double seconds = 0.0;            ///< from the call to the last frame drawn
};

/// Draws `scene` through `camera` into `target` (its size is the view's), once converged or
/// after `timeLimitSeconds`; the first frame (what is resident at once) is drawn into `target`
/// too. Says on the scene's report when the first image was ready and what the converged one
/// drew. Nothing is drawn in between: there are no frames to show.
ConvergedRender renderConverged(Scene& scene, const Camera& camera, const RenderSettings& settings,
                                const RenderTarget& target, double timeLimitSeconds);

}  // namespace pcv
