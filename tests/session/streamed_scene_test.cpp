// The scene model streaming a COPC file: it shows at once and frames its stated bounds, each
// frame draws the chosen nodes only, picking finds a streamed point, recolouring decodes the
// nodes again, and another file replaces the stream and gets the renderer's pool back (files
// added beside a stream: stream_beside_test.cpp).
// Reads COPC files of other projects' test suites (skipped where absent).
#include <chrono>
#include <thread>

#include "io_test_util.hpp"
#include "pcv/core/camera_framing.hpp"
#include "test_support.hpp"
#include "pcv/session/scene_model.hpp"
#include "reported_errors.hpp"

namespace pcv {
namespace {

std::string sample(const char* name) {
  const std::filesystem::path path = test::testDataDir() / "laz-corpus" / name;
  if (test::testDataDir().empty() || !std::filesystem::exists(path)) return {};
  return path.string();
}

#define PCV_SAMPLE(variable, name)           \
  const std::string variable = sample(name); \
  if (variable.empty()) GTEST_SKIP() << name << " not found in the shared data"

/// Frames of `camera` until the scene stops loading (at most ~10 s).
void streamUntilConverged(SceneModel& scene, const Camera& camera, int width, int height) {
  for (int frame = 0; frame < 2000; ++frame) {
    scene.poll();
    scene.updateStream(camera, width, height);
    if (!scene.loading()) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ADD_FAILURE() << "the stream did not converge";
}

struct StreamingScene {
  std::unique_ptr<Renderer> renderer = createRenderer("cpu");
  test::ReportedErrors errors;
  SceneModel scene{*renderer,
                   DemoCylinders{.pointCount = 1000, .seed = 1},
                   {},
                   {.pointBudget = 10'000'000, .gpuMemoryBytes = 64 << 20},
                   errors.report()};
};

TEST(StreamedScene, ShowsTheRootAtOnceAndConvergesOnTheChosenNodes) {
  PCV_SAMPLE(copc, "lone-star.copc.laz");
  StreamingScene s;
  s.scene.open({copc}, true);
  ASSERT_NE(s.scene.parts().stream.get(), nullptr);
  EXPECT_TRUE(s.scene.parts().holdsFiles());
  EXPECT_TRUE(s.scene.parts().inCore.cloud().points.empty()) << "nothing read whole";
  const std::optional<Box3d> framed = s.scene.poll();
  ASSERT_TRUE(framed.has_value()) << "the stated bounds frame the view before any node";
  EXPECT_FALSE(s.scene.poll().has_value()) << "framed once";
  EXPECT_GT(s.renderer->pointCount(), 0u) << "the root is resident from the start";
  const Camera camera = frameBounds(*framed, 1.0f);
  streamUntilConverged(s.scene, camera, 256, 256);
  const SetSelection drawn = s.scene.parts().drawnSets();
  EXPECT_FALSE(drawn.everything());
  uint64_t points = 0;
  for (PointSetId set : drawn.sets()) points += s.renderer->pointCount(set);
  EXPECT_EQ(points, s.scene.parts().stream->cloud().stats().pointsDrawn);
  EXPECT_EQ(s.scene.parts().files(), std::vector<std::string>{copc});
}

TEST(StreamedScene, PicksAStreamedPointInsideTheCloud) {
  PCV_SAMPLE(copc, "lone-star.copc.laz");
  StreamingScene s;
  s.scene.open({copc}, true);
  const Box3d bounds = *s.scene.poll();
  const Camera camera = frameBounds(bounds, 1.0f);
  streamUntilConverged(s.scene, camera, 128, 128);
  const std::optional<glm::dvec3> picked = s.scene.pick(camera, {}, 128, 128, 64, 64);
  ASSERT_TRUE(picked.has_value()) << "the framed cloud covers the centre pixel";
  for (int axis = 0; axis < 3; ++axis) {
    EXPECT_GE((*picked)[axis], bounds.min[axis] - 1e-3);
    EXPECT_LE((*picked)[axis], bounds.max[axis] + 1e-3);
  }
}

TEST(StreamedScene, RecoloringStreamsAgainAndABadAttributeFallsBack) {
  PCV_SAMPLE(copc, "lone-star.copc.laz");
  StreamingScene s;
  s.scene.open({copc}, true);
  const Camera camera = frameBounds(*s.scene.poll(), 1.0f);
  streamUntilConverged(s.scene, camera, 128, 128);
  s.scene.setColoring({.mode = ColorMode::Intensity});
  ASSERT_NE(s.scene.parts().stream.get(), nullptr);
  EXPECT_EQ(s.scene.coloring().used.mode, ColorMode::Intensity);
  EXPECT_FALSE(s.scene.poll().has_value()) << "the view stays where it is";
  streamUntilConverged(s.scene, camera, 128, 128);
  s.scene.setColoring({.mode = ColorMode::Attribute, .attribute = "no_such_attribute"});
  ASSERT_NE(s.scene.parts().stream.get(), nullptr) << "the stream stays, in its default colours";
  const std::vector<std::string> errors = s.errors.take();
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("no_such_attribute"), std::string::npos) << errors[0];
}

TEST(StreamedScene, AnotherFileReplacesTheStream) {
  PCV_SAMPLE(copc, "lone-star.copc.laz");
  test::TempDir dir;
  std::vector<test::SyntheticPoint> points;
  for (int i = 0; i < 50; ++i) points.push_back({double(i), 1.0, 2.0});
  test::writeBytes(dir.file("a.las"), test::makeLas(points));
  StreamingScene s;
  s.scene.open({copc}, true);
  s.scene.poll();
  s.scene.open({dir.file("a.las").string()}, true);
  EXPECT_EQ(s.scene.parts().stream.get(), nullptr);
  for (int i = 0; i < 2000 && (s.scene.loading() || !s.scene.parts().holdsFiles()); ++i) {
    s.scene.poll();
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_EQ(s.scene.parts().inCore.cloud().size(), 50u);
  EXPECT_EQ(s.renderer->pointCount(), 50u);
  EXPECT_EQ(s.renderer->reservedPointSlots(), 0u) << "the stream's reserved pool is given back";
}

TEST(StreamedScene, ABrokenCopcFileKeepsTheCylinders) {
  test::TempDir dir;
  test::writeBytes(dir.file("broken.copc.laz"), std::vector<uint8_t>(64, 7));
  StreamingScene s;
  s.scene.showDemo();
  s.scene.wait();
  s.scene.open({dir.file("broken.copc.laz").string()}, true);
  // Not COPC at all: read as any file, whose reader says why it fails.
  for (int i = 0; i < 2000 && s.scene.loading(); ++i) {
    s.scene.poll();
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  s.scene.poll();
  EXPECT_EQ(s.scene.parts().stream.get(), nullptr);
  EXPECT_FALSE(s.errors.take().empty());
  s.scene.wait();
  EXPECT_EQ(s.renderer->pointCount(), 1000u) << "the cylinders are back";
}

}  // namespace
}  // namespace pcv
