/// @brief World positions to window coordinates (ImGui's: pixels of the window, y down) for the
/// tools' overlays, in double so labels sit on georeferenced points; segments are cut at the
/// near plane so a line to a point behind the camera still draws its visible part.
#pragma once

#include <optional>
#include <utility>

#include <glm/glm.hpp>

#include "pcv/core/camera.hpp"

namespace pcv::app {

class ScreenProjector {
 public:
  /// `camera` seen in a window of windowWidth x windowHeight (ImGui's coordinates).
  ScreenProjector(const Camera& camera, double windowWidth, double windowHeight);

  /// The window position of `world`, or empty behind the near plane.
  std::optional<glm::dvec2> toWindow(const glm::dvec3& world) const;
  /// The window positions of the segment's part in front of the near plane, or empty.
  std::optional<std::pair<glm::dvec2, glm::dvec2>> segment(const glm::dvec3& a,
                                                           const glm::dvec3& b) const;
  /// World units per window pixel at the view depth of `world` (for drags in the view plane).
  double unitsPerPixelAt(const glm::dvec3& world) const;

  const Camera& camera() const { return camera_; }
  double windowWidth() const { return width_; }
  double windowHeight() const { return height_; }

 private:
  glm::dvec4 clip(const glm::dvec3& world) const;
  glm::dvec2 windowOf(const glm::dvec4& clip) const;
  Camera camera_;
  double width_, height_;
  glm::dmat4 viewProjection_;  // relative to the eye: the big numbers cancel first
};

/// Whether two cameras give the same view: an outline drawn in one (a closed polygon, a brush
/// stroke) is drawn over the window only then (in another view its selection is a cone or a
/// prism, not the shape on the screen).
bool sameView(const Camera& a, const Camera& b);

}  // namespace pcv::app
