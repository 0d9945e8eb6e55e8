// The Path tool's player without a window: keys from cameras (exactly back to the same camera),
// playing at a speed once or in a loop, pausing, seeking, and keys that make no path refused.
#include <gtest/gtest.h>

#include "viewer/tools/path/path_player.hpp"

namespace pcv::app {
namespace {

Camera cameraAt(glm::dvec3 eye, float yawDegrees, float pitchDegrees) {
  return Camera::lookingFrom(eye, yawDegrees, pitchDegrees);
}

TEST(PathPlayer, KeysOfCamerasGiveTheCamerasBack) {
  Camera camera = cameraAt({500000.125, 4000000.5, 100.25}, 0.0f, 0.0f);
  camera.yawRadians = 2.7182817f;
  camera.pitchRadians = -0.31415927f;
  const Camera back =
      CameraPose{keyOf(camera).eye, keyOf(camera).yawDegrees, keyOf(camera).pitchDegrees}.applyTo(
          Camera{});
  EXPECT_EQ(back.eye, camera.eye);
  EXPECT_EQ(back.yawRadians, camera.yawRadians);
  EXPECT_EQ(back.pitchRadians, camera.pitchRadians);
}

TEST(PathPlayer, PlaysOnceToTheLastKeyAndStops) {
  PathPlayer player;
  player.setPlaying(true);
  EXPECT_FALSE(player.playing());  // no keys
  player.add(keyOf(cameraAt({0, 0, 0}, 0, 0)));
  player.setPlaying(true);
  EXPECT_FALSE(player.playing());  // one key is no flight
  player.add(keyOf(cameraAt({4, 0, 0}, 90, 0)));
  ASSERT_NE(player.path(), nullptr);
  const double duration = player.path()->durationSeconds();
  EXPECT_GT(duration, 0.0);
  player.setLooping(false);
  player.setSpeed(2.0);
  player.setPlaying(true);
  ASSERT_TRUE(player.playing());
  const std::optional<CameraPose> mid = player.advance(duration / 4);  // half way at 2x
  ASSERT_TRUE(mid);
  EXPECT_NEAR(mid->eye.x, 2.0, 1e-9);
  EXPECT_NEAR(mid->yawDegrees, 45.0, 1e-5);  // 90 degrees as float radians, not exactly 90
  const std::optional<CameraPose> end = player.advance(duration);
  ASSERT_TRUE(end);
  EXPECT_EQ(end->eye, glm::dvec3(4, 0, 0));
  EXPECT_FALSE(player.playing());
  EXPECT_FALSE(player.advance(0.1));  // stopped: the camera is the user's again
  // Playing again starts from the beginning.
  player.setPlaying(true);
  EXPECT_EQ(player.position(), 0.0);
}

TEST(PathPlayer, LoopsAndPausesAndSeeks) {
  PathPlayer player;
  player.replace({{{0, 0, 0}, 0, 0, 0.0}, {{1, 0, 0}, 0, 0, 1.0}, {{1, 1, 0}, 0, 0, 2.0}});
  player.setLooping(true);
  player.setPlaying(true);
  player.advance(2.5);
  EXPECT_TRUE(player.playing());
  EXPECT_NEAR(player.position(), 0.5, 1e-12);
  player.setPlaying(false);
  EXPECT_FALSE(player.advance(1.0));
  EXPECT_NEAR(player.position(), 0.5, 1e-12);
  player.seek(1.0);
  EXPECT_EQ(player.pose()->eye, glm::dvec3(1, 0, 0));
  player.seek(99.0);
  EXPECT_EQ(player.position(), 2.0);
  player.setSpeed(1000.0);
  EXPECT_EQ(player.speed(), 20.0);
}

TEST(PathPlayer, KeysThatMakeNoPathAreRefusedAndTheOldOnesKept) {
  PathPlayer player;
  player.add(keyOf(cameraAt({0, 0, 0}, 0, 0)));
  EXPECT_THROW(player.replace({{{0, 0, 0}, 0, 0, 1.0}, {{1, 0, 0}, 0, 0}}), CameraPathError);
  EXPECT_EQ(player.keys().size(), 1u);
  player.remove(5);  // none such: ignored
  player.remove(0);
  EXPECT_EQ(player.path(), nullptr);
}

}  // namespace
}  // namespace pcv::app
