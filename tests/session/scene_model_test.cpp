// The viewer's scene model without a window: the cylinders until a file arrives, files merged,
// failures that keep what was shown, recolouring, and the renderer's sets kept in step.
#include <chrono>
#include <thread>

#include "io_test_util.hpp"
#include "pcv/core/camera_framing.hpp"
#include "test_support.hpp"
#include "pcv/session/scene_model.hpp"
#include "reported_errors.hpp"

namespace pcv {
namespace {

/// Polls until the loader is idle; the bounds of the last change.
std::optional<Box3d> pollUntilLoaded(SceneModel& scene) {
  std::optional<Box3d> last;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (std::chrono::steady_clock::now() < deadline) {
    if (auto shown = scene.poll()) last = shown;
    if (!scene.loading()) return last;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ADD_FAILURE() << "the files did not load within 30 s";
  return last;
}

/// A scene with one LAS file of `count` points loaded on a CPU renderer.
struct LoadedScene {
  test::TempDir dir;
  std::unique_ptr<Renderer> renderer = createRenderer("cpu");
  test::ReportedErrors errors;
  std::unique_ptr<SceneModel> scene;
  explicit LoadedScene(int count);
};

/// The scene's files seen whole.
ViewTransform makeViewTransformFor(const SceneModel& scene) {
  return test::makeView(frameBounds(scene.parts().filesBounds(), 1.0f), 64, 64,
                        scene.parts().origin);
}

std::vector<test::SyntheticPoint> pointsAt(double x, int count) {
  std::vector<test::SyntheticPoint> points;
  for (int i = 0; i < count; ++i) {
    test::SyntheticPoint p{x + 0.01 * i, 2.0, 3.0};
    p.red = 65535, p.intensity = uint16_t(i);
    points.push_back(p);
  }
  return points;
}

TEST(SceneModel, ShowsTheCylindersUntilAFileReplacesThem) {
  test::TempDir dir;
  test::writeBytes(dir.file("a.las"), test::makeLas(pointsAt(100.0, 40)));
  auto renderer = createRenderer("cpu");
  SceneModel scene(*renderer, DemoCylinders{.pointCount = 5000, .seed = 1}, {});
  scene.showDemo();
  scene.wait();
  EXPECT_EQ(renderer->pointCount(), 5000u);
  EXPECT_FALSE(scene.parts().holdsFiles());
  scene.open({dir.file("a.las").string()}, true);
  const std::optional<Box3d> shown = pollUntilLoaded(scene);
  ASSERT_TRUE(scene.parts().holdsFiles());
  EXPECT_EQ(renderer->pointCount(), 40u);
  EXPECT_EQ(renderer->sets().size(), 1u);
  ASSERT_TRUE(shown.has_value());
  EXPECT_NEAR(shown->min.x, 100.0, 1e-9);
  EXPECT_NEAR(shown->max.x, 100.39, 1e-9);
  EXPECT_EQ(scene.parts().origin, scene.parts().inCore.cloud().origin);
}

TEST(SceneModel, CylindersAreLaidOutOffTheCallersThread) {
  auto renderer = createRenderer("cpu");
  SceneModel scene(*renderer, DemoCylinders{.pointCount = 3'000'000, .seed = 1}, {});
  scene.showDemo();  // returns at once: the window keeps drawing while they are laid out
  EXPECT_TRUE(scene.preparing());
  EXPECT_FALSE(scene.pick(Camera{}, {}, 64, 64, 32, 32));  // the renderer is busy meanwhile
  EXPECT_FALSE(scene.shownBounds().empty());
  scene.wait();
  EXPECT_FALSE(scene.preparing());
  EXPECT_EQ(renderer->pointCount(), 3'000'000u);
  EXPECT_EQ(scene.parts().key(), "cylinders points=3000000 seed=1");
}

TEST(SceneModel, AddedFilesAreMergedIntoOneSet) {
  test::TempDir dir;
  test::writeBytes(dir.file("a.las"), test::makeLas(pointsAt(100.0, 40)));
  test::writeBytes(dir.file("b.las"), test::makeLas(pointsAt(200.0, 25)));
  auto renderer = createRenderer("cpu");
  SceneModel scene(*renderer, {}, {});
  scene.open({dir.file("a.las").string(), dir.file("b.las").string()}, true);
  pollUntilLoaded(scene);
  EXPECT_EQ(scene.parts().files().size(), 2u);
  EXPECT_EQ(scene.parts().inCore.cloud().size(), 65u);
  EXPECT_EQ(renderer->pointCount(), 65u);
  EXPECT_EQ(renderer->sets().size(), 1u);
  EXPECT_NEAR(scene.parts().filesBounds().max.x, 200.24, 1e-9);
}

TEST(SceneModel, AFailedFileKeepsWhatWasShownAndSaysWhy) {
  test::TempDir dir;
  test::writeText(dir.file("bad.ply"), "ply\nformat ascii 1.0\nelement vertex 1\n");
  auto renderer = createRenderer("cpu");
  test::ReportedErrors reported;
  SceneModel scene(*renderer, DemoCylinders{.pointCount = 3000, .seed = 2}, {}, {},
                   reported.report());
  scene.showDemo();
  scene.wait();
  scene.open({dir.file("bad.ply").string()}, true);
  pollUntilLoaded(scene);
  EXPECT_FALSE(scene.parts().holdsFiles());
  EXPECT_EQ(renderer->pointCount(), 3000u);  // the cylinders are still there
  const std::vector<std::string> errors = reported.take();
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("bad.ply"), std::string::npos) << errors[0];
  EXPECT_TRUE(reported.take().empty());  // said once
}

LoadedScene::LoadedScene(int count) {
  test::writeBytes(dir.file("a.las"), test::makeLas(pointsAt(100.0, count)));
  scene = std::make_unique<SceneModel>(*renderer, DemoCylinders{}, ColoringOptions{},
                                       StreamLimits{}, errors.report());
  scene->open({dir.file("a.las").string()}, true);
  pollUntilLoaded(*scene);
}

TEST(SceneModel, RecoloringKeepsOneSetAndTheMemoryItNeeds) {
  LoadedScene loaded(60);
  SceneModel& scene = *loaded.scene;
  Renderer* renderer = loaded.renderer.get();
  const uint64_t bytes = renderer->residentBytes();
  const ViewTransform view = makeViewTransformFor(scene);
  const Image rgb = test::renderToImage(*renderer, view, {});
  ColoringOptions byIntensity;
  byIntensity.mode = ColorMode::Attribute;
  byIntensity.attribute = "intensity";
  scene.setColoring(byIntensity);
  EXPECT_EQ(scene.coloring().used.attribute, "intensity");
  EXPECT_EQ(renderer->sets().size(), 1u);
  EXPECT_EQ(renderer->residentBytes(), bytes);
  EXPECT_GT(test::countDifferentPixels(rgb, test::renderToImage(*renderer, view, {})), 0u);
  // An attribute the files lack falls back to rgb and says so.
  ColoringOptions missing;
  missing.mode = ColorMode::Attribute;
  missing.attribute = "no_such_attribute";
  scene.setColoring(missing);
  EXPECT_EQ(scene.coloring().asked.mode, ColorMode::Rgb);
  EXPECT_EQ(loaded.errors.take().size(), 1u);
}

TEST(SceneModel, PicksTheCloudsPointUnderThePixel) {
  LoadedScene loaded(60);
  SceneModel& scene = *loaded.scene;
  // Looking along +x at the middle of the row from 1 unit before it: the first point is hit.
  const Camera camera = Camera::lookingFrom({99.0, 2.0, 3.0}, 0.0f, 0.0f);
  const std::optional<glm::dvec3> picked = scene.pick(camera, {}, 101, 101, 50, 50);
  ASSERT_TRUE(picked.has_value());
  EXPECT_NEAR(picked->x, 100.0, 1e-3);
  ASSERT_TRUE(scene.picked()->inCoreIndex.has_value());
  EXPECT_EQ(*scene.picked()->inCoreIndex, 0u);
}

}  // namespace
}  // namespace pcv
