// The start camera: files are framed so that the bounds' corners are all in view and one
// touches its edge (within the margin); the seed's cylinders keep the seed's camera exactly; a
// camera placed by hand stays where it is.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "pcv/core/camera_framing.hpp"
#include "pcv/core/error.hpp"
#include "pcv/session/scene_camera.hpp"

namespace pcv {
namespace {

struct Projected {
  glm::dvec2 low{HUGE_VAL}, high{-HUGE_VAL};  ///< of the corners' ndc x and y
};

/// Where the box's corners project (ndc); fails when one is behind the camera or clipped.
Projected projectCorners(const Camera& camera, const Box3d& box, float aspect) {
  const glm::dvec3 origin = box.center();
  const glm::mat4 vp = camera.viewProjection(origin, aspect);
  Projected projected;
  for (int c = 0; c < 8; ++c) {
    const glm::dvec3 corner((c & 1) ? box.max.x : box.min.x, (c & 2) ? box.max.y : box.min.y,
                            (c & 4) ? box.max.z : box.min.z);
    const glm::vec4 clip = vp * glm::vec4(glm::vec3(corner - origin), 1.0f);
    EXPECT_GT(clip.w, 0.0f) << "corner " << c << " behind the camera";
    EXPECT_GT(clip.z / clip.w, -1.0f) << "corner " << c << " before the near plane";
    EXPECT_LT(clip.z / clip.w, 1.0f) << "corner " << c << " beyond the far plane";
    const glm::dvec2 ndc(clip.x / clip.w, clip.y / clip.w);
    projected.low = glm::min(projected.low, ndc);
    projected.high = glm::max(projected.high, ndc);
  }
  return projected;
}

/// The largest |ndc x| and |ndc y| of the box's corners.
glm::dvec2 cornerReach(const Camera& camera, const Box3d& box, float aspect) {
  const Projected projected = projectCorners(camera, box, aspect);
  return glm::max(glm::abs(projected.low), glm::abs(projected.high));
}

TEST(StartCamera, FramedFilesFillTheViewToTheMargin) {
  Box3d tile;  // a LiDAR tile: 1 km square, 80 m of relief
  tile.extend(glm::dvec3(500000.0, 5000000.0, 100.0));
  tile.extend(glm::dvec3(501000.0, 5001000.0, 180.0));
  Box3d tall;
  tall.extend(glm::dvec3(-1.0, -1.0, 0.0));
  tall.extend(glm::dvec3(1.0, 1.0, 20.0));
  Box3d cube;
  cube.extend(glm::dvec3(-3.0));
  cube.extend(glm::dvec3(4.0));
  for (const Box3d& box : {tile, tall, cube}) {
    for (float aspect : {16.0f / 9.0f, 1.0f, 0.5f}) {
      const Camera camera = startCamera(SceneKind::InCore, box, aspect, {});
      const glm::dvec2 reach = cornerReach(camera, box, aspect);
      EXPECT_LE(std::max(reach.x, reach.y), 1.0) << "every corner inside the view";
      // Touching one side: as far out as the margin lets it, no nearer the centre.
      EXPECT_NEAR(std::max(reach.x, reach.y), 1.0 / kFramingMargin, 1e-3)
          << "aspect " << aspect << ", box " << box.size().x << " x " << box.size().z;
      // Centred: the projection reaches as far to either side.
      const Projected projected = projectCorners(camera, box, aspect);
      EXPECT_NEAR(projected.low.x, -projected.high.x, 1e-3);
      EXPECT_NEAR(projected.low.y, -projected.high.y, 1e-3);
    }
  }
}

TEST(StartCamera, ALidarTileFillsMostOfTheImageWidth) {
  Box3d tile;
  tile.extend(glm::dvec3(500000.0, 5000000.0, 100.0));
  tile.extend(glm::dvec3(501000.0, 5001000.0, 180.0));
  const float aspect = 16.0f / 9.0f;
  const Camera camera = startCamera(SceneKind::InCore, tile, aspect, {});
  // A bounding sphere left it at about 40 % of the width (reach 0.4).
  EXPECT_GT(cornerReach(camera, tile, aspect).x, 0.6);
}

TEST(StartCamera, TheCylindersKeepTheSeedCameraExactly) {
  Box3d box;
  box.extend(glm::dvec3(-2.0));
  box.extend(glm::dvec3(2.0));
  const Camera seed;
  // Samples of the data (what files are framed on) change nothing for the seed's scene.
  const std::vector<glm::dvec3> samples = {{-2.0, -2.0, -2.0}, {2.0, 1.0, 0.5}};
  const Camera camera =
      startCamera(SceneKind::Cylinders, box, 16.0f / 9.0f, {.camera = seed}, samples);
  EXPECT_EQ(seed.eye, glm::dvec3(-3.0, 0.0, 0.0));
  EXPECT_EQ(seed.forward(), glm::dvec3(1.0, 0.0, 0.0));
  EXPECT_EQ(camera.eye, seed.eye);
  EXPECT_EQ(camera.yawRadians, seed.yawRadians);
  EXPECT_EQ(camera.pitchRadians, seed.pitchRadians);
  EXPECT_EQ(camera.nearPlane, seed.nearPlane);
  EXPECT_EQ(camera.farPlane, seed.farPlane);
  EXPECT_EQ(camera.fovYRadians, seed.fovYRadians);
}

TEST(StartCamera, ACameraPlacedByHandStaysWithPlanesFittedUnlessGiven) {
  Box3d box;
  box.extend(glm::dvec3(0.0));
  box.extend(glm::dvec3(1000.0));
  const Camera given = Camera::lookingFrom({-500.0, 0.0, 0.0}, 10.0f, -5.0f);
  const Camera fitted =
      startCamera(SceneKind::InCore, box, 1.0f, {.camera = given, .eyeGiven = true});
  EXPECT_EQ(fitted.eye, given.eye);
  EXPECT_EQ(fitted.yawRadians, given.yawRadians);
  EXPECT_GT(fitted.farPlane, 1500.0f) << "sees the whole box";
  const Camera kept = startCamera(SceneKind::InCore, box, 1.0f,
                                  {.camera = given, .eyeGiven = true, .clipPlanesGiven = true});
  EXPECT_EQ(kept.farPlane, given.farPlane);
  EXPECT_EQ(kept.nearPlane, given.nearPlane);
}

TEST(CameraRequestFromOptions, SaysWhichPartsWereGiven) {
  const CameraRequest framed = cameraRequestFrom(CameraOptions{});
  EXPECT_FALSE(framed.eyeGiven);
  EXPECT_FALSE(framed.clipPlanesGiven);
  EXPECT_FALSE(framed.orthoView);
  EXPECT_FALSE(framed.orthoWidthGiven);

  const CameraRequest placed = cameraRequestFrom({.eye = glm::dvec3(1.0, 2.0, 3.0),
                                                  .farPlane = 500.0f,
                                                  .orthographic = true,
                                                  .orthoView = OrthoView::Side,
                                                  .orthoWidth = 12.0});
  EXPECT_TRUE(placed.eyeGiven);
  EXPECT_EQ(placed.camera.eye, glm::dvec3(1.0, 2.0, 3.0));
  EXPECT_TRUE(placed.clipPlanesGiven);
  EXPECT_EQ(placed.orthoView, OrthoView::Side);
  EXPECT_TRUE(placed.orthoWidthGiven);
  EXPECT_EQ(placed.camera.orthoWidth, 12.0);
}

TEST(CameraRequestFromOptions, RefusesWhatTheCameraRefuses) {
  EXPECT_THROW(cameraRequestFrom({.nearPlane = 2.0f, .farPlane = 1.0f}), InputError);
}

}  // namespace
}  // namespace pcv
