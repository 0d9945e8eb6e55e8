#include "pcv/core/camera_options.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "pcv/core/error.hpp"
#include "pcv/core/number_text.hpp"

namespace pcv {
namespace {

constexpr double kRadiansPerDegree = 3.14159265358979323846 / 180.0;

void requireFinite(double value, const char* what) {
  if (!std::isfinite(value)) {
    throw InputError(std::string(what) + " must be a finite number, got " + std::to_string(value));
  }
}

}  // namespace

Camera cameraFromOptions(const CameraOptions& options) {
  Camera camera;
  if (options.eye) {
    for (int axis = 0; axis < 3; ++axis) requireFinite((*options.eye)[axis], "the eye position");
    camera.eye = *options.eye;
  }
  requireFinite(options.yawDegrees, "the yaw");
  requireFinite(options.pitchDegrees, "the pitch");
  camera.upAxis = options.up;
  // Converted in double and rounded once: every float angle is reached by some typed value.
  camera.yawRadians = float(options.yawDegrees * kRadiansPerDegree);
  camera.pitchRadians = float(std::clamp(options.pitchDegrees, -90.0, 90.0) * kRadiansPerDegree);
  if (options.fovYDegrees) {
    const double fov = *options.fovYDegrees;
    if (!(fov > 0.0 && fov < 180.0)) {
      throw InputError("the field of view must be in (0, 180) degrees, got " + exactText(fov));
    }
    camera.fovYRadians = float(fov * kRadiansPerDegree);
  }
  if (options.orthographic) {
    camera.projection = Projection::Orthographic;
    if (options.orthoView) turnToOrthoView(camera, *options.orthoView);
    if (options.orthoWidth) {
      if (!(*options.orthoWidth > 0.0 && std::isfinite(*options.orthoWidth))) {
        throw InputError("the orthographic width must be a positive number, got " +
                         exactText(*options.orthoWidth));
      }
      camera.orthoWidth = *options.orthoWidth;
    }
  } else if (options.orthoWidth) {
    throw InputError(
        "an orthographic width needs an orthographic view (plan, front, side or view)");
  }
  if (options.nearPlane) camera.nearPlane = *options.nearPlane;
  if (options.farPlane) camera.farPlane = *options.farPlane;
  if (!(camera.nearPlane > 0.0f && camera.farPlane > camera.nearPlane)) {
    throw InputError("the near and far planes must satisfy 0 < near < far, got " +
                     exactFloatText(camera.nearPlane) + " and " + exactFloatText(camera.farPlane));
  }
  return camera;
}

}  // namespace pcv
