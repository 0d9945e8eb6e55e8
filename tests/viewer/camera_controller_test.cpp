// Fly and orbit controllers without a window: the seed's speeds and conventions.
#include <cmath>

#include <glm/gtc/constants.hpp>

#include "pcv/core/camera_framing.hpp"
#include "test_support.hpp"
#include "camera/camera_rig.hpp"
#include "camera/fly_controller.hpp"
#include "camera/orbit_controller.hpp"

namespace pcv::app {
namespace {

constexpr double kTolerance = 1e-6;

void expectNear(const glm::dvec3& actual, const glm::dvec3& expected, double tolerance) {
  EXPECT_NEAR(actual.x, expected.x, tolerance);
  EXPECT_NEAR(actual.y, expected.y, tolerance);
  EXPECT_NEAR(actual.z, expected.z, tolerance);
}

TEST(FlyController, WHeldHalfASecondMovesOnePointFiveUnitsForward) {
  Camera camera;  // the seed's: (-3,0,0) looking along +x
  FlyController fly;
  MotionKeys keys;
  keys.forward = true;
  for (int frame = 0; frame < 30; ++frame) fly.move(camera, keys, 0.5 / 30.0);
  expectNear(camera.eye, {-1.5, 0.0, 0.0}, kTolerance);
}

TEST(UpAxis, YUpCamerasTurnAboutYAndClimbAlongIt) {
  Camera camera = Camera::lookingFrom({0.0, 0.0, 0.0}, 90.0f, 0.0f, UpAxis::Y);
  // Yaw 90 with y up looks along -z; up is +y.
  expectNear(camera.forward(), {0.0, 0.0, -1.0}, kTolerance);
  expectNear(camera.up(), {0.0, 1.0, 0.0}, kTolerance);
  expectNear(camera.worldUp(), {0.0, 1.0, 0.0}, 0.0);
  FlyController fly;
  MotionKeys keys;
  keys.up = true;
  fly.move(camera, keys, 1.0);
  expectNear(camera.eye, {0.0, 3.0, 0.0}, kTolerance);
  // Looking along a direction and back gives that direction, whichever axis is up.
  for (UpAxis up : {UpAxis::Z, UpAxis::Y}) {
    Camera c;
    c.upAxis = up;
    c.lookAlong({1.0, -2.0, 0.5});
    expectNear(c.forward(), glm::normalize(glm::dvec3(1.0, -2.0, 0.5)), 1e-6);
  }
}

TEST(UpAxis, FramingLooksDownAlongTheUpAxis) {
  const Box3d box{{-1.0, -1.0, -1.0}, {1.0, 1.0, 1.0}};
  Camera yUp;
  yUp.upAxis = UpAxis::Y;
  const Camera framed = frameBounds(box, 16.0f / 9.0f, {}, yUp);
  EXPECT_EQ(framed.upAxis, UpAxis::Y);
  EXPECT_GT(framed.eye.y, 1.0);  // above the box on y
  EXPECT_LT(framed.forward().y, 0.0);
}

TEST(FlyController, StrafesRightAlongMinusYAndClimbsAlongZ) {
  Camera camera;
  FlyController fly;
  MotionKeys keys;
  keys.right = true;
  keys.up = true;
  fly.move(camera, keys, 1.0);
  // Looking along +x with z up, right is -y.
  expectNear(camera.eye, {-3.0, -3.0, 3.0}, kTolerance);
}

TEST(FlyController, ShiftAndWheelScaleTheSpeed) {
  Camera camera;
  FlyController fly;
  fly.adjustSpeed(2.0);
  EXPECT_NEAR(fly.speedUnitsPerSecond(), 3.0 * 1.25 * 1.25, kTolerance);
  fly.adjustSpeed(-2.0);
  MotionKeys keys;
  keys.back = true;
  keys.fast = true;
  fly.move(camera, keys, 0.5);
  expectNear(camera.eye, {-3.0 - 3.0 * 4.0 * 0.5, 0.0, 0.0}, kTolerance);
}

TEST(FlyController, MouselookTurnsThreeRadiansPerWindowHeightAndClampsPitch) {
  Camera camera;
  FlyController fly;
  fly.look(camera, {72.0, 0.0}, 720);
  EXPECT_NEAR(camera.yawRadians, -0.3f, 1e-6f);
  fly.look(camera, {0.0, -10000.0}, 720);
  EXPECT_FLOAT_EQ(camera.pitchRadians, glm::half_pi<float>());
}

TEST(OrbitController, AttachKeepsTheViewAndOrbitKeepsTheDistance) {
  Camera camera;
  OrbitController orbit;
  orbit.attach(camera, 3.0);
  expectNear(orbit.target(), {0.0, 0.0, 0.0}, kTolerance);
  orbit.orbit(camera, {180.0, -90.0}, 720);
  EXPECT_NEAR(glm::length(camera.eye - orbit.target()), 3.0, 1e-5);
  // Still looking at the target.
  expectNear(glm::normalize(orbit.target() - camera.eye), camera.forward(), 1e-5);
}

TEST(OrbitController, QuarterTurnOfYawPutsTheEyeOnTheYAxis) {
  Camera camera;
  OrbitController orbit;
  orbit.attach(camera, 3.0);
  // Yaw -= dx * 3 / height: dx = -pi/2 * 720 / 3 turns yaw by +pi/2, looking along +y.
  orbit.orbit(camera, {-glm::half_pi<double>() * 720.0 / 3.0, 0.0}, 720);
  expectNear(camera.eye, {0.0, -3.0, 0.0}, 1e-5);
}

TEST(OrbitController, ZoomScalesTheDistanceAndPanMovesTargetAndEyeTogether) {
  Camera camera;
  OrbitController orbit;
  orbit.attach(camera, 3.0);
  orbit.zoom(camera, 1.0);
  EXPECT_NEAR(orbit.distance(), 3.0 * 0.85, kTolerance);
  expectNear(camera.eye, {-3.0 * 0.85, 0.0, 0.0}, kTolerance);
  const glm::dvec3 eyeBefore = camera.eye;
  orbit.pan(camera, {100.0, 0.0}, 720);
  const glm::dvec3 shift = camera.eye - eyeBefore;
  // Dragging right moves the camera left (+y when looking along +x), by the pixel size at the
  // target's depth.
  const double expected = 100.0 * 2.0 * orbit.distance() * std::tan(glm::radians(30.0)) / 720.0;
  expectNear(shift, {0.0, expected, 0.0}, 1e-5);
  expectNear(orbit.target() - camera.eye, camera.forward() * orbit.distance(), 1e-5);
}

TEST(OrbitController, FocusCentresThePointAtTheGivenDistance) {
  Camera camera;
  OrbitController orbit;
  orbit.focus(camera, {1.0, 2.0, 3.0}, 2.0);
  expectNear(camera.eye, {-1.0, 2.0, 3.0}, kTolerance);
}

TEST(CameraRig, FocusTurnsToThePointWithoutMovingAndOrbitsAroundIt) {
  CameraRig rig;  // the seed's camera at (-3, 0, 0)
  rig.setFollowsScene(true);
  rig.focusOn({0.0, 3.0, 0.0});
  expectNear(rig.camera().eye, {-3.0, 0.0, 0.0}, kTolerance);
  expectNear(rig.camera().forward(), glm::normalize(glm::dvec3(3.0, 3.0, 0.0)), 1e-6);
  expectNear(rig.orbit().target(), {0.0, 3.0, 0.0}, 1e-6);
  EXPECT_FALSE(rig.followsScene());  // the user chose where to look
}

TEST(CameraRig, MouselookLeavesOrbitAndTheWheelZoomsOnlyInOrbit) {
  CameraRig rig;
  rig.setMode(CameraMode::Orbit, 3.0);
  rig.scrolled(1.0);
  EXPECT_NEAR(rig.orbit().distance(), 3.0 * 0.85, kTolerance);
  rig.setMouselook(true);
  EXPECT_EQ(rig.mode(), CameraMode::Fly);
  const double speed = rig.flySpeed();
  rig.scrolled(1.0);
  EXPECT_NEAR(rig.flySpeed(), speed * 1.25, kTolerance);
}

TEST(CameraRig, FramingSetsClipPlanesAndSpeedFromTheScene) {
  CameraRig rig;
  Box3d box;
  box.extend(glm::dvec3(500000.0, 5000000.0, 100.0));
  box.extend(glm::dvec3(501000.0, 5001000.0, 150.0));
  rig.frame(box, 16.0f / 9.0f);
  const Camera& camera = rig.camera();
  EXPECT_GT(glm::length(camera.eye - box.center()), 500.0);
  EXPECT_LT(camera.nearPlane, glm::length(camera.eye - box.center()) - 700.0);
  EXPECT_GT(camera.farPlane, glm::length(camera.eye - box.center()) + 700.0);
  EXPECT_NEAR(rig.flySpeed(), box.diagonal() / 5.0, 1e-6);
}

/// Where `world` shows across the image, -1 (left edge) to 1 (right edge), with `aspect`.
double ndcX(const Camera& camera, const glm::dvec3& world, double aspect) {
  const glm::dvec3 offset = world - camera.eye;
  const double x = glm::dot(offset, camera.right());
  if (camera.orthographic()) return x / (0.5 * camera.orthoWidth);
  return x / (glm::dot(offset, camera.forward()) * std::tan(0.5 * camera.fovYRadians) * aspect);
}

TEST(CameraRig, FramingBesideAPanelCentresTheDataInTheFreePartAndOrbitsAroundIt) {
  const Box3d box{{10.0, 20.0, 0.0}, {60.0, 50.0, 4.0}};
  const double aspect = 16.0 / 9.0, covered = 0.25;
  for (const Projection projection : {Projection::Perspective, Projection::Orthographic}) {
    Camera base;
    base.projection = projection;
    CameraRig rig(base);
    rig.setMode(CameraMode::Orbit, 1.0);
    rig.frame(box, float(aspect), {}, covered);
    // The free part spans ndc x from 2 * covered - 1 to 1: the data shows there as it would in
    // an image of the free part's size (frameBounds centres the extremes of the box's
    // projection, which leaves its centre a little off the middle).
    const double freeAspect = aspect * (1.0 - covered);
    const double inFree =
        ndcX(frameBounds(box, float(freeAspect), {}, base), box.center(), freeAspect);
    const double expected = covered + inFree * (1.0 - covered);
    EXPECT_NEAR(ndcX(rig.camera(), box.center(), aspect), expected, 1e-6);
    expectNear(rig.orbit().target(), box.center(), 1e-9);
    // Turning and zooming keep the pivot where it was drawn.
    rig.cursorMoved({80.0, -40.0}, 720, true, false);
    rig.scrolled(2.0);
    EXPECT_NEAR(ndcX(rig.camera(), box.center(), aspect), expected, 1e-6);
    expectNear(rig.orbit().target(), box.center(), 1e-6);
    // Nothing covered: framed in the whole window, as before.
    rig.frame(box, float(aspect), {}, 0.0);
    EXPECT_NEAR(ndcX(rig.camera(), box.center(), aspect),
                ndcX(frameBounds(box, float(aspect), {}, base), box.center(), aspect), 1e-6);
  }
}

}  // namespace
}  // namespace pcv::app
