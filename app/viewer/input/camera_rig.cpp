#include "viewer/input/camera_rig.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "pcv/core/camera_framing.hpp"

namespace pcv::app {

void CameraRig::setMode(CameraMode mode, double orbitDistance) {
  if (mode == mode_) return;
  if (mode == CameraMode::Orbit) {
    mouselook_ = false;
    orbit_.attach(camera_, orbitDistance);
  }
  mode_ = mode;
}

void CameraRig::setMouselook(bool on) {
  mouselook_ = on;
  if (on) mode_ = CameraMode::Fly;
}

void CameraRig::move(const MotionKeys& keys, double dtSeconds) {
  if (mode_ != CameraMode::Fly) return;
  if (keys.forward || keys.back || keys.left || keys.right || keys.up || keys.down) {
    followsScene_ = false;
  }
  fly_.move(camera_, keys, dtSeconds);
}

void CameraRig::cursorMoved(glm::dvec2 deltaPx, int windowHeightPx, bool leftHeld, bool panHeld) {
  if (mouselook_) {
    fly_.look(camera_, deltaPx, windowHeightPx);
    followsScene_ = false;
    return;
  }
  if (mode_ != CameraMode::Orbit) return;
  if (leftHeld || panHeld) followsScene_ = false;
  if (leftHeld) orbit_.orbit(camera_, deltaPx, windowHeightPx);
  if (panHeld) orbit_.pan(camera_, deltaPx, windowHeightPx);
}

void CameraRig::scrolled(double notches) {
  followsScene_ = false;
  if (mode_ == CameraMode::Orbit && !mouselook_) {
    orbit_.zoom(camera_, notches);
  } else {
    fly_.adjustSpeed(notches);
  }
}

void CameraRig::focusOn(const glm::dvec3& point) {
  const glm::dvec3 toPoint = point - camera_.eye;
  const double distance = glm::length(toPoint);
  if (distance <= 0.0) return;
  camera_.lookAlong(toPoint);
  orbit_.focus(camera_, point, distance);
  followsScene_ = false;
}

void CameraRig::jumpTo(const Camera& camera) {
  camera_ = camera;
  orbit_.attach(camera_, orbit_.distance());
  followsScene_ = false;
}

void CameraRig::frame(const Box3d& worldBounds, float aspect, std::span<const glm::dvec3> samples) {
  camera_ = frameBounds(worldBounds, aspect, {}, camera_, samples);
  // Cross the scene in about five seconds, whatever its units.
  fly_.setSpeedUnitsPerSecond(std::max(1e-3, worldBounds.diagonal() / 5.0));
  orbit_.attach(camera_, glm::length(worldBounds.center() - camera_.eye));
  const glm::dvec3& eye = camera_.eye;
  std::fprintf(stderr,
               "pcv: framed %.3f x %.3f x %.3f; eye (%.3f, %.3f, %.3f), near %.4g far %.4g\n",
               worldBounds.size().x, worldBounds.size().y, worldBounds.size().z, eye.x, eye.y,
               eye.z, double(camera_.nearPlane), double(camera_.farPlane));
}

}  // namespace pcv::app
