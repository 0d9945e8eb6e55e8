#include "pcv/core/camera_framing.hpp"

#include <algorithm>
#include <cmath>

namespace pcv {

Camera frameBounds(const Box3d& worldBounds, float aspect, const FramingAngles& angles,
                   const Camera& base) {
  Box3d box = worldBounds;
  if (box.empty()) {
    box.min = glm::dvec3(-0.5);
    box.max = glm::dvec3(0.5);
  }
  const glm::dvec3 centre = box.center();
  // A single point or a zero-size cloud still gets a view of a metre-ish around it; otherwise
  // never less than a millionth of the coordinates' magnitude (float offsets resolve no finer).
  const double radius = std::max({0.5 * glm::length(box.size()), 1e-6 * glm::length(centre), 1e-3});

  Camera camera = base;
  camera.yawRadians = glm::radians(angles.yawDegrees);
  camera.pitchRadians = glm::radians(std::clamp(angles.pitchDegrees, -89.0f, 89.0f));
  // The sphere fits when its radius subtends half of the narrower field of view.
  const double halfFovY = 0.5 * double(camera.fovYRadians);
  const double halfFovX = std::atan(std::tan(halfFovY) * double(std::max(aspect, 1e-3f)));
  const double halfFov = std::min(halfFovX, halfFovY);
  const double distance = radius / std::sin(halfFov) * 1.05;  // 5 % margin
  camera.eye = centre - camera.forward() * distance;
  // Depth precision follows far/near: near just in front of the sphere, far well behind it so
  // the camera can back off a little without clipping.
  camera.nearPlane = float(std::max(distance - radius, distance * 1e-3) * 0.5);
  camera.farPlane = float((distance + radius) * 4.0);
  return camera;
}

void fitClipPlanes(Camera& camera, const Box3d& worldBounds) {
  if (worldBounds.empty()) return;
  const double radius = std::max(
      {0.5 * glm::length(worldBounds.size()), 1e-6 * glm::length(worldBounds.center()), 1e-3});
  const double toCentre = glm::length(worldBounds.center() - camera.eye);
  // Far behind the farthest point; near at the nearest point when the camera is outside the
  // cloud's sphere, else a small fraction of the cloud's size (the camera flies among points).
  const double farthest = toCentre + radius;
  camera.farPlane = float(farthest * 2.0);
  camera.nearPlane = float(std::max(toCentre - radius, radius * 1e-4) * 0.5);
}

}  // namespace pcv
