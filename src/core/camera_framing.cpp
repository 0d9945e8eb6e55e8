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
  const double minimumRadius = std::max(1e-6 * glm::length(centre), 1e-3);
  const double radius = std::max(0.5 * glm::length(box.size()), minimumRadius);

  Camera camera = base;
  camera.yawRadians = glm::radians(angles.yawDegrees);
  camera.pitchRadians = glm::radians(std::clamp(angles.pitchDegrees, -89.0f, 89.0f));
  const glm::dvec3 forward = camera.forward(), up = camera.up(), right = camera.right();
  // The half extents of the view at unit depth, less the margin.
  const double tanY = std::tan(0.5 * double(camera.fovYRadians)) / kFramingMargin;
  const double tanX = tanY * double(std::max(aspect, 1e-3f));
  // Looking at the centre from `distance`, a corner at offset (x right, y up, z forward) from it
  // lies inside the view when |x| <= tanX (distance + z) and |y| <= tanY (distance + z): the
  // nearest distance where every corner does is the largest of these bounds. That corner
  // touches the view's edge (within the margin); a bounding sphere would leave the flat box of
  // a LiDAR tile small in the image.
  double distance = minimumRadius / std::sin(std::min(std::atan(tanX), std::atan(tanY)));
  double nearestAhead = 0.0;  // the largest -z: the corner nearest the camera
  for (int c = 0; c < 8; ++c) {
    const glm::dvec3 corner((c & 1) ? box.max.x : box.min.x, (c & 2) ? box.max.y : box.min.y,
                            (c & 4) ? box.max.z : box.min.z);
    const glm::dvec3 offset = corner - centre;
    const double x = glm::dot(offset, right), y = glm::dot(offset, up);
    const double z = glm::dot(offset, forward);
    distance = std::max(distance, std::max(std::abs(x) / tanX, std::abs(y) / tanY) - z);
    nearestAhead = std::max(nearestAhead, -z);
  }
  // Never inside the box, whatever its shape: a corner on the view axis bounds nothing above.
  distance = std::max(distance, nearestAhead + 0.05 * radius);
  camera.eye = centre - forward * distance;
  // Depth precision follows far/near: near just in front of the box, far well behind it so
  // the camera can back off a little without clipping.
  camera.nearPlane = float(std::max(distance - nearestAhead, distance * 1e-3) * 0.5);
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
