/// @brief `pcv render` of a COPC file, streamed: the view's nodes are chosen from the hierarchy
/// and decoded on worker threads while frames run, until every node the view wants is resident
/// (or a time limit passes); that converged view is the image. Says on stderr when the first
/// image was ready, when the view converged and what it drew.
#pragma once

#include <functional>
#include <string>

#include "option_groups.hpp"
#include "pcv/core/image.hpp"
#include "pcv/core/point_coloring.hpp"
#include "pcv/raster/render_settings.hpp"
#include "pcv/raster/renderer.hpp"
#include "pcv/stream/streamed_cloud.hpp"

namespace pcv::app {

struct StreamedRenderRequest {
  std::string path;
  ReadOptions read;
  StreamingOptions streaming;  ///< its colouring too
  ViewFlags view;              ///< the camera, framed on the file unless --eye is given
  int widthPx = 1280, heightPx = 720;
  RenderSettings settings;
  bool edlAuto = true;              ///< --edl auto: say that colourless data is shaded
  double timeLimitSeconds = 600.0;  ///< an image is written then, converged or not
};

/// Draws the converged view into host memory (`drawThroughGl` draws it instead, given the
/// renderer holding only that view's sets).
Image renderStreamed(const StreamedRenderRequest& request, Renderer& renderer,
                     const std::function<Image(const ViewTransform&)>& drawThroughGl = {});

}  // namespace pcv::app
