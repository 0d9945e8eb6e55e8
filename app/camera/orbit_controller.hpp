/// @brief Orbit camera: left-drag turns around a target, right/middle-drag pans it in the view
/// plane, the wheel zooms towards it. Works on the same pcv::Camera as the fly mode, so the two
/// modes switch without a jump.
#pragma once

#include <glm/glm.hpp>

#include "pcv/core/camera.hpp"

namespace pcv::app {

class OrbitController {
 public:
  static constexpr double kOrbitRadiansPerHeight = 3.0;  ///< drag the window height: 3 radians
  static constexpr double kZoomStepFactor = 0.85;        ///< distance factor per wheel notch
  static constexpr double kMinDistance = 1e-3;           ///< world units

  /// Takes over a camera: the target is `distance` ahead of the eye (and offAxis() from its
  /// axis); the view does not change.
  void attach(const Camera& camera, double distance);
  /// Takes over a camera orbiting around `point` wherever it shows in the image (in front of the
  /// eye): offAxis() is set so that it stays there; the view does not change.
  void attachAt(const Camera& camera, const glm::dvec3& point);
  /// Turns the camera around the target by a drag of `deltaPx`.
  void orbit(Camera& camera, glm::dvec2 deltaPx, int viewportHeightPx) const;
  /// Moves target and eye so the point under the cursor follows it (exact at the target depth).
  void pan(Camera& camera, glm::dvec2 deltaPx, int viewportHeightPx);
  /// Scales the distance by kZoomStepFactor per notch (positive zooms in).
  void zoom(Camera& camera, double wheelNotches);
  /// Makes `point` the target, keeping the view direction and moving the eye to `distance`;
  /// the target is then in the middle of the view (offAxis 0).
  void focus(Camera& camera, const glm::dvec3& point, double distance);

  /// How far right of and above the view's axis the target lies: per unit of distance
  /// (perspective) or of orthoWidth (orthographic), so it keeps its place in the image as the
  /// camera zooms and turns. Framing beside the sidebar puts the data's centre in the middle of
  /// the part of the window the sidebar leaves free; (0, 0) is the window's middle.
  void setOffAxis(glm::dvec2 offAxis) { offAxis_ = offAxis; }
  glm::dvec2 offAxis() const { return offAxis_; }

  const glm::dvec3& target() const { return target_; }
  double distance() const { return distance_; }

 private:
  void placeEye(Camera& camera) const;
  /// offAxis_ in world units for `camera`.
  glm::dvec3 offAxisShift(const Camera& camera) const;

  glm::dvec3 target_{0.0};
  double distance_ = 3.0;
  glm::dvec2 offAxis_{0.0};
};

}  // namespace pcv::app
