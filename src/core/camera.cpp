#include "pcv/core/camera.hpp"

#include <algorithm>
#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

namespace pcv {

namespace {

// Yaw and pitch work in a z-up frame; a y-up world is that frame turned a quarter about x, so
// (a, b, c) of the frame is (a, c, -b) of the world.
glm::dvec3 frameToWorld(UpAxis up, const glm::dvec3& v) {
  return up == UpAxis::Z ? v : glm::dvec3(v.x, v.z, -v.y);
}

glm::dvec3 worldToFrame(UpAxis up, const glm::dvec3& v) {
  return up == UpAxis::Z ? v : glm::dvec3(v.x, -v.z, v.y);
}

}  // namespace

Camera Camera::lookingFrom(const glm::dvec3& eye, float yawDegrees, float pitchDegrees,
                           UpAxis upAxis) {
  Camera camera;
  camera.eye = eye;
  camera.yawRadians = glm::radians(yawDegrees);
  camera.pitchRadians = glm::radians(glm::clamp(pitchDegrees, -90.0f, 90.0f));
  camera.upAxis = upAxis;
  return camera;
}

glm::dvec3 Camera::forward() const {
  const double yaw = yawRadians, pitch = pitchRadians;
  return frameToWorld(
      upAxis, {std::cos(pitch) * std::cos(yaw), std::cos(pitch) * std::sin(yaw), std::sin(pitch)});
}

glm::dvec3 Camera::up() const {
  // The seed's up: forward with the pitch raised by a quarter turn; never parallel to forward.
  const double yaw = yawRadians, pitch = pitchRadians;
  return frameToWorld(upAxis, {-std::sin(pitch) * std::cos(yaw), -std::sin(pitch) * std::sin(yaw),
                               std::cos(pitch)});
}

glm::dvec3 Camera::worldUp() const {
  return frameToWorld(upAxis, {0.0, 0.0, 1.0});
}

void Camera::lookAlong(const glm::dvec3& direction) {
  const double length = glm::length(direction);
  if (!(length > 0.0)) return;
  const glm::dvec3 f = worldToFrame(upAxis, direction / length);
  yawRadians = float(std::atan2(f.y, f.x));
  pitchRadians = float(std::asin(std::clamp(f.z, -1.0, 1.0)));
}

glm::dvec3 Camera::right() const {
  return glm::cross(forward(), up());
}

glm::mat4 Camera::viewProjection(const glm::dvec3& origin, float aspect) const {
  // Translating the eye, not the points, keeps the big numbers out of float.
  const glm::dvec3 eyeFromOrigin = eye - origin;
  const glm::dmat4 view = glm::lookAt(eyeFromOrigin, eyeFromOrigin + forward(), up());
  const glm::dmat4 projection =
      glm::perspective(double(fovYRadians), double(aspect), double(nearPlane), double(farPlane));
  return glm::mat4(projection * view);
}

}  // namespace pcv
