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

const NameTable<UpAxis>& upAxisTable() {
  static constexpr NamedValue<UpAxis> kRows[] = {{"z", UpAxis::Z}, {"y", UpAxis::Y}};
  static const NameTable<UpAxis> table{"up axis", kRows};
  return table;
}

std::vector<std::string> upAxisNames() {
  return upAxisTable().names();
}

UpAxis parseUpAxis(std::string_view name) {
  return upAxisTable().parse(name);
}

const char* upAxisName(UpAxis axis) {
  return upAxisTable().name(axis);
}

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

namespace {

glm::dmat4 projectionOf(const Camera& c, double aspect) {
  if (c.orthographic()) {
    const double halfWidth = 0.5 * c.orthoWidth, halfHeight = halfWidth / aspect;
    return glm::ortho(-halfWidth, halfWidth, -halfHeight, halfHeight, double(c.nearPlane),
                      double(c.farPlane));
  }
  return glm::perspective(double(c.fovYRadians), aspect, double(c.nearPlane), double(c.farPlane));
}

}  // namespace

glm::dmat4 Camera::viewFrom(const glm::dvec3& origin) const {
  // Translating the eye, not the points, keeps the big numbers out of float.
  const glm::dvec3 eyeFromOrigin = eye - origin;
  return glm::lookAt(eyeFromOrigin, eyeFromOrigin + forward(), up());
}

glm::mat4 Camera::viewProjection(const glm::dvec3& origin, float aspect) const {
  return glm::mat4(projectionOf(*this, double(aspect)) * viewFrom(origin));
}

glm::dmat4 Camera::viewProjectionFromEye(double aspect) const {
  return projectionOf(*this, aspect) * viewFrom(eye);
}

double Camera::unitsPerPixel(double depth, double heightPx, double aspect) const {
  const double rows = std::max(heightPx, 1.0);
  if (orthographic()) return orthoWidth / std::max(aspect, 1e-9) / rows;
  return 2.0 * std::max(depth, double(nearPlane)) * std::tan(0.5 * double(fovYRadians)) / rows;
}

}  // namespace pcv
