#include "camera/orbit_controller.hpp"

#include <algorithm>
#include <cmath>

#include <glm/gtc/constants.hpp>

namespace pcv::app {

void OrbitController::attach(const Camera& camera, double distance) {
  distance_ = std::max(distance, kMinDistance);
  target_ = camera.eye + camera.forward() * distance_ + offAxisShift(camera);
}

void OrbitController::attachAt(const Camera& camera, const glm::dvec3& point) {
  const glm::dvec3 offset = point - camera.eye;
  distance_ = std::max(glm::dot(offset, camera.forward()), kMinDistance);
  const double scale = camera.orthographic() ? camera.orthoWidth : distance_;
  offAxis_ = glm::dvec2(glm::dot(offset, camera.right()), glm::dot(offset, camera.up())) / scale;
  target_ = camera.eye + camera.forward() * distance_ + offAxisShift(camera);
}

void OrbitController::orbit(Camera& camera, glm::dvec2 deltaPx, int viewportHeightPx) const {
  const double scale = kOrbitRadiansPerHeight / double(std::max(viewportHeightPx, 1));
  // Dragging right turns the scene right: the eye moves left around the target.
  const float halfPi = glm::half_pi<float>();
  camera.yawRadians = std::fmod(camera.yawRadians - float(deltaPx.x * scale), glm::two_pi<float>());
  camera.pitchRadians = std::clamp(camera.pitchRadians + float(deltaPx.y * scale), -halfPi, halfPi);
  placeEye(camera);
}

void OrbitController::pan(Camera& camera, glm::dvec2 deltaPx, int viewportHeightPx) {
  // World units per pixel at the target's depth.
  // (Orthographic: the same at every depth; the window's aspect is not known here, so the
  // vertical extent is taken from a 16:9 window.)
  const double unitsPerPixel =
      camera.unitsPerPixel(distance_, double(viewportHeightPx), 16.0 / 9.0);
  // Cursor y grows downwards: dragging down moves the scene down, the camera up.
  const glm::dvec3 shift = (-camera.right() * deltaPx.x + camera.up() * deltaPx.y) * unitsPerPixel;
  target_ += shift;
  placeEye(camera);
}

void OrbitController::zoom(Camera& camera, double wheelNotches) {
  if (camera.orthographic()) {
    // Parallel rays: nearer shows nothing larger; the view's width is what zooms.
    camera.orthoWidth = std::max(camera.orthoWidth * std::pow(kZoomStepFactor, wheelNotches), 1e-9);
    placeEye(camera);  // a target off the axis keeps its place in the image
    return;
  }
  distance_ = std::max(distance_ * std::pow(kZoomStepFactor, wheelNotches), kMinDistance);
  placeEye(camera);
}

void OrbitController::focus(Camera& camera, const glm::dvec3& point, double distance) {
  target_ = point;
  distance_ = std::max(distance, kMinDistance);
  offAxis_ = glm::dvec2(0.0);
  placeEye(camera);
}

void OrbitController::placeEye(Camera& camera) const {
  camera.eye = target_ - camera.forward() * distance_ - offAxisShift(camera);
}

glm::dvec3 OrbitController::offAxisShift(const Camera& camera) const {
  const double scale = camera.orthographic() ? camera.orthoWidth : distance_;
  return (camera.right() * offAxis_.x + camera.up() * offAxis_.y) * scale;
}

}  // namespace pcv::app
