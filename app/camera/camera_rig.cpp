#include "camera/camera_rig.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "pcv/core/camera_framing.hpp"

namespace pcv::app {

namespace {

/// The centre frameBounds frames: an empty box stands for a unit cube at the origin.
glm::dvec3 framedCentre(const Box3d& worldBounds) {
  return worldBounds.empty() ? glm::dvec3(0.0) : worldBounds.center();
}

}  // namespace

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
  orbit_.setOffAxis(glm::dvec2(0.0));  // a bookmark orbits around the window's middle
  orbit_.attach(camera_, orbit_.distance());
  followsScene_ = false;
}

void CameraRig::frame(const Box3d& worldBounds, float aspect, std::span<const glm::dvec3> samples,
                      double coveredLeft) {
  coveredLeft = std::clamp(coveredLeft, 0.0, 0.9);
  const double freeShare = 1.0 - coveredLeft;
  // Fitted to the free part of the window (its aspect), then the eye steps left so the data's
  // centre shows in the middle of that part: at NDC x = coveredLeft.
  camera_ = frameBounds(worldBounds, float(double(aspect) * freeShare), {}, camera_, samples);
  double sideways = 0.0;
  if (camera_.orthographic()) {
    camera_.orthoWidth /= freeShare;  // fitted across the free part; the image spans the window
    sideways = 0.5 * coveredLeft * camera_.orthoWidth;  // the same share of the half width
  } else {
    // x_ndc = x / (z tan(fovY / 2) aspect) for a point x right of the axis at depth z.
    const double depth = glm::dot(framedCentre(worldBounds) - camera_.eye, camera_.forward());
    sideways = coveredLeft * depth * std::tan(0.5 * double(camera_.fovYRadians)) * double(aspect);
  }
  camera_.eye -= camera_.right() * sideways;
  // Cross the scene in about five seconds, whatever its units.
  fly_.setSpeedUnitsPerSecond(std::max(1e-3, worldBounds.diagonal() / 5.0));
  // Orbiting turns around the data's centre where the framing shows it, not around a point on
  // the view's axis: the view does not jump to the window's middle at the first drag.
  orbit_.attachAt(camera_, framedCentre(worldBounds));
  const glm::dvec3& eye = camera_.eye;
  std::fprintf(stderr,
               "pcv: framed %.3f x %.3f x %.3f; eye (%.3f, %.3f, %.3f), near %.4g far %.4g\n",
               worldBounds.size().x, worldBounds.size().y, worldBounds.size().z, eye.x, eye.y,
               eye.z, double(camera_.nearPlane), double(camera_.farPlane));
}

}  // namespace pcv::app
