/// @brief The view the selection tests draw in: a plan view 100 units across over a 1000 x 500
/// window (10 px per unit), centred on (0, 0), looking down from z = 100.
#pragma once

#include "pcv/core/camera.hpp"
#include "pcv/core/camera_framing.hpp"

namespace pcv::test {

inline Camera planCamera() {
  Camera camera;
  camera.projection = Projection::Orthographic;
  turnToOrthoView(camera, OrthoView::Plan);
  camera.eye = {0.0, 0.0, 100.0};
  camera.orthoWidth = 100.0;
  camera.nearPlane = 1.0f;
  camera.farPlane = 1000.0f;
  return camera;
}

}  // namespace pcv::test
