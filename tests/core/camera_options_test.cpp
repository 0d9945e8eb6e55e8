// The camera front ends type (degrees, planes, orthographic view) and the image size they ask
// for: one set of checks in the library, so the command line and Python refuse the same values.
#include <cmath>
#include <limits>

#include <gtest/gtest.h>
#include <glm/gtc/constants.hpp>

#include "pcv/core/camera_options.hpp"
#include "pcv/core/error.hpp"
#include "pcv/core/image_size.hpp"

namespace pcv {
namespace {

TEST(CameraOptions, DefaultsAreTheSeedCamera) {
  const Camera camera = cameraFromOptions({});
  const Camera seed;
  EXPECT_EQ(camera.eye, seed.eye);
  EXPECT_EQ(camera.yawRadians, seed.yawRadians);
  EXPECT_EQ(camera.pitchRadians, seed.pitchRadians);
  EXPECT_EQ(camera.fovYRadians, seed.fovYRadians);
  EXPECT_EQ(camera.nearPlane, seed.nearPlane);
  EXPECT_EQ(camera.farPlane, seed.farPlane);
  EXPECT_EQ(camera.upAxis, seed.upAxis);
  EXPECT_FALSE(camera.orthographic());
}

TEST(CameraOptions, DegreesConvertInDoubleAndRoundOnce) {
  const Camera camera = cameraFromOptions({.eye = glm::dvec3(1.0, 2.0, 3.0),
                                           .yawDegrees = 33.3,
                                           .pitchDegrees = -12.5,
                                           .up = UpAxis::Y,
                                           .fovYDegrees = 45.0,
                                           .nearPlane = 0.5f,
                                           .farPlane = 50.0f});
  EXPECT_EQ(camera.eye, glm::dvec3(1.0, 2.0, 3.0));
  EXPECT_EQ(camera.yawRadians, float(33.3 * glm::pi<double>() / 180.0));
  EXPECT_EQ(camera.pitchRadians, float(-12.5 * glm::pi<double>() / 180.0));
  EXPECT_EQ(camera.fovYRadians, float(45.0 * glm::pi<double>() / 180.0));
  EXPECT_EQ(camera.upAxis, UpAxis::Y);
  EXPECT_EQ(camera.nearPlane, 0.5f);
  EXPECT_EQ(camera.farPlane, 50.0f);
}

TEST(CameraOptions, PitchIsClampedToStraightUpOrDown) {
  EXPECT_EQ(cameraFromOptions({.pitchDegrees = 120.0}).pitchRadians, float(glm::half_pi<double>()));
  EXPECT_EQ(cameraFromOptions({.pitchDegrees = -400.0}).pitchRadians,
            float(-glm::half_pi<double>()));
}

TEST(CameraOptions, RejectsPlanesOutOfOrder) {
  EXPECT_THROW(cameraFromOptions({.nearPlane = 2.0f, .farPlane = 1.0f}), InputError);
  EXPECT_THROW(cameraFromOptions({.nearPlane = 0.0f}), InputError);
  EXPECT_THROW(cameraFromOptions({.nearPlane = -1.0f}), InputError);
  // Against the default of the plane not given: far 100.
  EXPECT_THROW(cameraFromOptions({.nearPlane = 200.0f}), InputError);
  EXPECT_THROW(cameraFromOptions({.farPlane = 0.001f}), InputError);
  EXPECT_THROW(cameraFromOptions({.nearPlane = std::nanf("")}), InputError);
}

TEST(CameraOptions, RejectsFieldsOfViewOutsideZeroTo180) {
  for (const double fov : {0.0, -10.0, 180.0, 270.0, std::nan("")}) {
    EXPECT_THROW(cameraFromOptions({.fovYDegrees = fov}), InputError) << fov;
  }
  EXPECT_NO_THROW(cameraFromOptions({.fovYDegrees = 179.0}));
}

TEST(CameraOptions, RejectsNumbersThatAreNotFinite) {
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_THROW(cameraFromOptions({.eye = glm::dvec3(0.0, inf, 0.0)}), InputError);
  EXPECT_THROW(cameraFromOptions({.yawDegrees = std::nan("")}), InputError);
  EXPECT_THROW(cameraFromOptions({.pitchDegrees = inf}), InputError);
}

TEST(CameraOptions, OrthographicViewsTurnTheCameraAndKeepTheirWidth) {
  const Camera plan =
      cameraFromOptions({.orthographic = true, .orthoView = OrthoView::Plan, .orthoWidth = 40.0});
  EXPECT_TRUE(plan.orthographic());
  EXPECT_EQ(plan.orthoWidth, 40.0);
  Camera turned;
  turnToOrthoView(turned, OrthoView::Plan);
  EXPECT_EQ(plan.pitchRadians, turned.pitchRadians);
  // "view": orthographic along the yaw and pitch given.
  const Camera along = cameraFromOptions({.yawDegrees = 30.0, .orthographic = true});
  EXPECT_TRUE(along.orthographic());
  EXPECT_EQ(along.yawRadians, float(30.0 * glm::pi<double>() / 180.0));
}

TEST(CameraOptions, RejectsAnOrthographicWidthThatIsNotPositiveOrHasNoView) {
  EXPECT_THROW(cameraFromOptions({.orthographic = true, .orthoWidth = 0.0}), InputError);
  EXPECT_THROW(cameraFromOptions({.orthographic = true, .orthoWidth = -5.0}), InputError);
  EXPECT_THROW(cameraFromOptions({.orthoWidth = 10.0}), InputError);
}

TEST(ImageSize, ParsesWidthByHeight) {
  const ImageSize size = parseImageSize("1920x1080");
  EXPECT_EQ(size.width, 1920);
  EXPECT_EQ(size.height, 1080);
  EXPECT_EQ(parseImageSize("64X48").height, 48);
  const ImageSize largest = parseImageSize("16384x16384");
  EXPECT_EQ(largest.width, kMaxImageSidePx);
}

TEST(ImageSize, RejectsSizesOutsideTheLimitAndMalformedText) {
  for (const char* text : {"0x10", "10x0", "16385x10", "10x16385", "-4x4", "1920", "x", "",
                           "1920x1080x3", "19a0x1080", " 1920x1080", "1920x1080 "}) {
    EXPECT_THROW(parseImageSize(text), InputError) << text;
  }
  EXPECT_THROW(checkImageSize({0, 10}), InputError);
  EXPECT_THROW(checkImageSize({10, kMaxImageSidePx + 1}), InputError);
  EXPECT_NO_THROW(checkImageSize({1, kMaxImageSidePx}));
}

}  // namespace
}  // namespace pcv
