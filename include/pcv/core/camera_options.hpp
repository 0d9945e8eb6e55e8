/// @brief The camera as a front end is told it (an eye, yaw and pitch in degrees, the up axis,
/// the field of view, clip planes, an orthographic view), turned into a Camera with one set of
/// checks, so `pcv render`, `pcv view` and pcv.render accept and refuse the same cameras alike.
#pragma once

#include <optional>

#include <glm/glm.hpp>

#include "pcv/core/camera.hpp"
#include "pcv/core/camera_framing.hpp"

namespace pcv {

struct CameraOptions {
  /// World position; empty: the default camera's (front ends then frame the scene).
  std::optional<glm::dvec3> eye;
  /// 0 looks along +x. Degrees in double: every float angle in radians has a value that
  /// reproduces it (converted in double, rounded once), so a copied view reads back exactly.
  double yawDegrees = 0.0;
  double pitchDegrees = 0.0;  ///< above the horizon; clamped to -90 .. 90
  UpAxis up = UpAxis::Z;
  std::optional<double> fovYDegrees;  ///< vertical field of view, in (0, 180); empty: 60
  std::optional<float> nearPlane;     ///< world units; empty: the default (or fitted to a scene)
  std::optional<float> farPlane;      ///< world units; empty: the default (or fitted to a scene)
  bool orthographic = false;          ///< parallel rays instead of a perspective
  /// Orthographic only: turned to look as this view does; empty: along the yaw and pitch.
  std::optional<OrthoView> orthoView;
  /// Orthographic only: world units across the image, > 0; empty: the default (or fitted).
  std::optional<double> orthoWidth;
};

/// The camera `options` describe. Throws InputError when the eye, yaw or pitch is not finite,
/// the field of view is outside (0, 180) degrees, the planes break 0 < near < far (defaults
/// included), or the orthographic width is not positive or is given without an orthographic
/// view.
Camera cameraFromOptions(const CameraOptions& options);

}  // namespace pcv
