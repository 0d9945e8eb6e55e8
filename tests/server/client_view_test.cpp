// A browser's view and its pacing: frames owed while it moves, the final frame once still, two
// frames in flight at most, the frame-rate limit, and the settings each frame is drawn with.
#include <gtest/gtest.h>

#include <chrono>

#include "server/client_view.hpp"

namespace pcv::app {
namespace {

using std::chrono::milliseconds;

class ClientViewTest : public ::testing::Test {
 protected:
  ServerClock::time_point start = ServerClock::now();
  ServerClock::time_point at(int ms) const { return start + milliseconds(ms); }
};

TEST_F(ClientViewTest, MovesThenSendsOneFinalFrameOnceStill) {
  ClientView view({.maxFps = 100.0, .framesInFlight = 2, .stillSeconds = 0.15});
  view.apply(ViewSizeMessage{320, 200}, at(0));
  EXPECT_EQ(view.owed(at(0), true), FrameKind::Moving);
  view.frameSent(FrameKind::Moving, at(0));
  view.apply(AckMessage{1}, at(5));
  // Still, but not yet for long enough.
  EXPECT_EQ(view.owed(at(100), true), FrameKind::None);
  ASSERT_TRUE(view.nextChance(at(100), true));
  EXPECT_EQ(*view.nextChance(at(100), true), at(150));
  EXPECT_EQ(view.owed(at(150), true), FrameKind::Final);
  view.frameSent(FrameKind::Final, at(150));
  view.apply(AckMessage{2}, at(155));
  EXPECT_EQ(view.owed(at(1000), true), FrameKind::None);
  EXPECT_FALSE(view.nextChance(at(1000), true));
  // New input: moving again, and another final frame after it.
  view.apply(WheelMessage{1.0}, at(1000));
  EXPECT_EQ(view.owed(at(1000), true), FrameKind::Moving);
}

TEST_F(ClientViewTest, AStreamStillLoadingDelaysTheFinalFrame) {
  ClientView view({.maxFps = 100.0, .framesInFlight = 2, .stillSeconds = 0.15});
  view.apply(ViewSizeMessage{320, 200}, at(0));
  view.frameSent(FrameKind::Moving, at(0));
  view.apply(AckMessage{1}, at(1));
  EXPECT_NE(view.owed(at(200), false), FrameKind::Final);
  // Not for ever: a stream that never settles still gets its final frame.
  EXPECT_EQ(view.owed(at(6000), false), FrameKind::Final);
  EXPECT_EQ(view.owed(at(200), true), FrameKind::Final);
}

TEST_F(ClientViewTest, NothingIsDrawnBeforeTheClientSaysItsSize) {
  ClientView view;
  view.apply(DragMessage{5, 0, DragButton::Left}, at(0));
  EXPECT_EQ(view.owed(at(10), true), FrameKind::None);
  EXPECT_FALSE(view.nextChance(at(10), true));
  view.apply(ViewSizeMessage{320, 200}, at(20));
  EXPECT_EQ(view.owed(at(20), true), FrameKind::Moving);
}

TEST_F(ClientViewTest, TwoUnacknowledgedFramesStopTheFrames) {
  ClientView view({.maxFps = 1000.0, .framesInFlight = 2, .stillSeconds = 0.15});
  view.apply(ViewSizeMessage{320, 200}, at(0));
  view.apply(DragMessage{5, 0, DragButton::Left}, at(0));
  view.frameSent(FrameKind::Moving, at(0));
  view.apply(DragMessage{5, 0, DragButton::Left}, at(2));
  view.frameSent(FrameKind::Moving, at(2));
  view.apply(DragMessage{5, 0, DragButton::Left}, at(4));
  EXPECT_EQ(view.framesInFlight(), 2);
  EXPECT_EQ(view.owed(at(10), true), FrameKind::None);
  EXPECT_FALSE(view.nextChance(at(10), true));  // only an acknowledgement frees it
  // An acknowledgement of a frame never sent frees nothing more than those sent.
  view.apply(AckMessage{99}, at(11));
  EXPECT_EQ(view.framesInFlight(), 0);
  EXPECT_EQ(view.owed(at(11), true), FrameKind::Moving);
}

TEST_F(ClientViewTest, TheFrameRateLimitHolds) {
  ClientView view({.maxFps = 50.0, .framesInFlight = 2, .stillSeconds = 0.15});
  view.apply(ViewSizeMessage{320, 200}, at(0));
  view.apply(DragMessage{5, 0, DragButton::Left}, at(0));
  view.frameSent(FrameKind::Moving, at(0));
  view.apply(AckMessage{1}, at(1));
  view.apply(DragMessage{5, 0, DragButton::Left}, at(2));
  EXPECT_EQ(view.owed(at(10), true), FrameKind::None);
  EXPECT_EQ(*view.nextChance(at(10), true), at(20));
  EXPECT_EQ(view.owed(at(20), true), FrameKind::Moving);
}

TEST_F(ClientViewTest, HeldKeysFlyAndOwnFramesOnlyInFlyMode) {
  ClientView view({.maxFps = 1000.0, .framesInFlight = 2, .stillSeconds = 0.15});
  view.apply(ViewSizeMessage{320, 200}, at(0));
  view.rig().setMode(CameraMode::Fly, 3.0);
  view.frameSent(FrameKind::Moving, at(0));
  view.apply(AckMessage{1}, at(0));
  KeysMessage forward;
  forward.forward = true;
  view.apply(forward, at(0));
  const glm::dvec3 before = view.rig().camera().eye;
  view.frameSent(FrameKind::Moving, at(1));
  view.apply(AckMessage{2}, at(1));
  EXPECT_EQ(view.owed(at(50), true), FrameKind::Moving);  // keys held: still moving
  view.advance(at(50));
  EXPECT_GT(glm::length(view.rig().camera().eye - before), 0.0);
  view.apply(ModeMessage{true}, at(60));
  view.frameSent(FrameKind::Moving, at(61));
  view.apply(AckMessage{3}, at(61));
  EXPECT_EQ(view.owed(at(100), true), FrameKind::None);  // orbit: keys move nothing
}

TEST_F(ClientViewTest, FramesAreDrawnWithTheClientsSettingsAndHqOnlyWhenFinal) {
  ClientView view;
  SettingsMessage settings;
  settings.pointSize = 3;
  settings.edl = true;
  settings.classes = std::optional<std::vector<uint8_t>>(std::vector<uint8_t>{2});
  view.apply(settings, at(0));
  const RenderSettings moving = view.renderSettings({}, FrameKind::Moving);
  EXPECT_EQ(moving.quality.pointSizePx, 3);
  EXPECT_EQ(moving.quality.edl, EdlMode::On);
  EXPECT_FALSE(moving.quality.highQuality);
  EXPECT_TRUE(moving.filter.classes.contains(2));
  EXPECT_FALSE(moving.filter.classes.contains(6));
  EXPECT_TRUE(view.renderSettings({}, FrameKind::Final).quality.highQuality);
}

TEST_F(ClientViewTest, ABookmarkGivesTheSameFloatAnglesAsTheRenderCommand) {
  ClientView view;
  view.apply(ViewMessage{{1.0, -2.0, 3.5}, -30.000000834826057, 12.5, 45.0}, at(0));
  const Camera& camera = view.rig().camera();
  EXPECT_EQ(camera.eye, glm::dvec3(1.0, -2.0, 3.5));
  EXPECT_EQ(camera.yawRadians, float(glm::radians(-30.000000834826057)));
  EXPECT_EQ(camera.pitchRadians, float(glm::radians(12.5)));
  EXPECT_EQ(camera.fovYRadians, float(glm::radians(45.0)));
}

}  // namespace
}  // namespace pcv::app
