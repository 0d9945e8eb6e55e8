/// @brief The viewer's camera and the controllers that move it: the seed's fly mode (WASD,
/// mouselook), an orbit mode, framing a scene and focusing on a point. No window: the viewer
/// feeds it input, the tests drive it directly.
#pragma once

#include <span>

#include <glm/glm.hpp>

#include "pcv/core/bounds.hpp"
#include "pcv/core/camera.hpp"
#include "camera/fly_controller.hpp"
#include "camera/motion_keys.hpp"
#include "camera/orbit_controller.hpp"

namespace pcv::app {

enum class CameraMode { Fly, Orbit };

class CameraRig {
 public:
  explicit CameraRig(const Camera& camera = {}) : camera_(camera) {}

  const Camera& camera() const { return camera_; }
  void setCamera(const Camera& camera) { camera_ = camera; }
  CameraMode mode() const { return mode_; }
  /// Switches mode; orbit goes round what is ahead at `orbitDistance` (world units).
  void setMode(CameraMode mode, double orbitDistance);
  /// Mouselook belongs to the fly mode: turning it on leaves orbit.
  bool mouselook() const { return mouselook_; }
  void setMouselook(bool on);

  /// Held keys for `dtSeconds` (fly mode).
  void move(const MotionKeys& keys, double dtSeconds);
  /// A cursor motion: turns with mouselook, else drags in orbit mode (left orbits, right or
  /// middle pans) according to the buttons held.
  void cursorMoved(glm::dvec2 deltaPx, int windowHeightPx, bool leftHeld, bool panHeld);
  /// A wheel: zoom in orbit mode, fly speed otherwise.
  void scrolled(double notches);
  /// Turns to `point` and orbits around it from where the camera is: no jump in position.
  void focusOn(const glm::dvec3& point);
  /// Shows `worldBounds` whole from an oblique angle, with near/far planes and fly speed from
  /// its size; `aspect` is width / height of the view. Fitted to `samples` of the data where
  /// given (framingSamples), as `pcv render` frames it. `coveredLeft` is the share of the
  /// view's width a panel covers at its left edge: the data is fitted into the rest and centred
  /// there, and orbiting keeps it there.
  void frame(const Box3d& worldBounds, float aspect, std::span<const glm::dvec3> samples = {},
             double coveredLeft = 0.0);
  /// Goes to `camera` (a bookmark): orbit mode then orbits around what is ahead at the distance
  /// it had; the scene is no longer followed.
  void jumpTo(const Camera& camera);

  /// True until the user moves the camera: arriving files are framed as they grow.
  bool followsScene() const { return followsScene_; }
  void setFollowsScene(bool follows) { followsScene_ = follows; }

  double flySpeed() const { return fly_.speedUnitsPerSecond(); }
  const OrbitController& orbit() const { return orbit_; }

 private:
  Camera camera_;
  CameraMode mode_ = CameraMode::Fly;
  FlyController fly_;
  OrbitController orbit_;
  bool mouselook_ = false;
  bool followsScene_ = false;
};

}  // namespace pcv::app
