/// @brief The view a screen-space selection was drawn in (a polygon, a brush stroke), kept with
/// it so that the selection stays on the same points when the camera moves: world positions go
/// to the view's normalized device coordinates through it, in double.
#pragma once

#include <glm/glm.hpp>

#include "pcv/core/bounds.hpp"
#include "pcv/core/camera.hpp"

namespace pcv {

struct SelectionView {
  /// clip = viewProjection * (world - anchor, 1) gives the plane's x / w and y / w.
  glm::dvec3 anchor{0.0};
  glm::dmat4 viewProjection{1.0};
  /// A position is in front when clip w > minimumW (-infinity: every position, as an
  /// orthographic view's rays select both ways).
  double minimumW = 0.0;

  /// The view of `camera` over a width x height window (at least one pixel each; the caller
  /// checks). A perspective view selects in front of its near plane.
  static SelectionView of(const Camera& camera, double width, double height);

  /// The position in the view's plane (normalized device coordinates), or false behind a
  /// perspective eye.
  bool toNdc(const glm::dvec3& world, glm::dvec2& ndc) const;
  /// The rectangle in the plane around the box's projected corners; false when the box crosses
  /// the eye's plane (it may then be anywhere on the screen).
  bool ndcRectangle(const Box3d& box, glm::dvec2& low, glm::dvec2& high) const;
  /// Throws InputError naming `what` when a number is not finite.
  void validate(const char* what) const;
};

}  // namespace pcv
