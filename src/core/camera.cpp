#include "pcv/core/camera.hpp"

#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

namespace pcv {

Camera Camera::lookingFrom(const glm::dvec3& eye, float yawDegrees, float pitchDegrees) {
  Camera camera;
  camera.eye = eye;
  camera.yawRadians = glm::radians(yawDegrees);
  camera.pitchRadians = glm::radians(glm::clamp(pitchDegrees, -90.0f, 90.0f));
  return camera;
}

glm::dvec3 Camera::forward() const {
  const double yaw = yawRadians, pitch = pitchRadians;
  return {std::cos(pitch) * std::cos(yaw), std::cos(pitch) * std::sin(yaw), std::sin(pitch)};
}

glm::dvec3 Camera::up() const {
  // The seed's up: forward with the pitch raised by a quarter turn; never parallel to forward.
  const double yaw = yawRadians, pitch = pitchRadians;
  return {-std::sin(pitch) * std::cos(yaw), -std::sin(pitch) * std::sin(yaw), std::cos(pitch)};
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
