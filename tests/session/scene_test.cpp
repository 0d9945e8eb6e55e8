// Scenes opened through the session on the CPU renderer: a LAS file read whole (merged,
// coloured, one set), a COPC file streamed until its view converges, the cylinders; and the
// converged render of a streamed file looks like the one of the same file read whole.
#include <gtest/gtest.h>

#include "pcv/core/image.hpp"
#include "pcv/session/render_converged.hpp"
#include "pcv/session/scene.hpp"
#include "pcv/session/scene_camera.hpp"
#include "session_test_files.hpp"
#include "test_support.hpp"

namespace pcv {
namespace {

constexpr int kWidth = 160, kHeight = 90;

Image render(Scene& scene, const RenderSettings& settings = {}) {
  const Camera camera =
      startCamera(scene.kind(), scene.worldBounds(), float(kWidth) / float(kHeight), {});
  Image image(kWidth, kHeight, test::kPoisonPixel);
  const ConvergedRender done = renderConverged(
      scene, camera, settings, {image.pixels.data(), kWidth, kHeight, MemorySpace::Host}, 60.0);
  EXPECT_TRUE(done.converged);
  EXPECT_LE(done.firstImageSeconds, done.seconds);
  return image;
}

TEST(Scene, OpensALasFileInCoreAndDrawsIt) {
  test::TempDir dir;
  const std::string las = test::writeGridLas(dir.file("grid.las")).string();
  auto renderer = createRenderer("cpu");
  std::vector<std::string> notes;
  SceneOptions options;
  options.report.note = [&](const std::string& line) { notes.push_back(line); };
  const std::unique_ptr<Scene> scene = openScene({.files = {las}}, options, *renderer);
  EXPECT_EQ(scene->kind(), SceneKind::InCore);
  EXPECT_EQ(scene->pointCount(), 1600u);
  EXPECT_EQ(scene->cloud().size(), 1600u);
  EXPECT_TRUE(scene->hasColor());
  EXPECT_EQ(renderer->pointCount(), 1600u);
  EXPECT_NEAR(scene->worldBounds().min.x, 500000.0, 0.01);
  EXPECT_NEAR(scene->worldBounds().max.y, 5000050.0, 0.01);
  EXPECT_FALSE(notes.empty()) << "says what it read";
  const Image image = render(*scene);
  EXPECT_EQ(test::countDifferentPixels(image, Image(kWidth, kHeight, test::kPoisonPixel)),
            uint64_t(kWidth) * kHeight)
      << "every pixel written";
  EXPECT_GT(test::countLitPixels(image, RenderSettings{}.background), 100u);
}

TEST(Scene, MergesFilesInOneOrigin) {
  test::TempDir dir;
  const std::string a = test::writeGridLas(dir.file("a.las"), 10).string();
  const std::string b = test::writeGridLas(dir.file("b.las"), 20).string();
  auto renderer = createRenderer("cpu");
  const std::unique_ptr<Scene> scene = openScene({.files = {a, b}}, {}, *renderer);
  EXPECT_EQ(scene->pointCount(), 500u);
  EXPECT_EQ(renderer->pointCount(), 500u);
}

TEST(Scene, PointsGivenInMemoryAreMergedWithTheFiles) {
  test::TempDir dir;
  const std::string las = test::writeGridLas(dir.file("grid.las"), 10).string();
  auto given = std::make_shared<PointCloud>();
  given->origin = glm::dvec3(500200.0, 5000000.0, 100.0);
  for (int i = 0; i < 50; ++i) {
    given->points.push_back(Point{float(i), 0.0f, 1.0f, 0xff00ff00u});
  }
  given->hasColor = true;
  auto renderer = createRenderer("cpu");
  const ScenePlan plan = planScene({.files = {las}, .clouds = {given}}, {});
  EXPECT_EQ(plan.kind, SceneKind::InCore);
  Scene scene(plan, {}, *renderer);
  EXPECT_EQ(scene.pointCount(), 150u);
  EXPECT_EQ(renderer->pointCount(), 150u);
  EXPECT_NEAR(scene.worldBounds().min.x, 500000.0, 0.01);
  EXPECT_NEAR(scene.worldBounds().max.x, 500249.0, 0.01);
  EXPECT_GT(test::countLitPixels(render(scene), RenderSettings{}.background), 20u);
}

TEST(Scene, TheCylindersAreASourceToo) {
  auto renderer = createRenderer("cpu");
  const std::unique_ptr<Scene> scene =
      openScene({.demo = {.pointCount = 20'000, .seed = 1}}, {}, *renderer);
  EXPECT_EQ(scene->kind(), SceneKind::Cylinders);
  EXPECT_EQ(renderer->pointCount(), 20'000u);
  EXPECT_FALSE(scene->worldBounds().empty());
  EXPECT_GT(test::countLitPixels(render(*scene), RenderSettings{}.background), 100u);
}

TEST(Scene, AStreamedCopcFileConvergesToTheImageOfTheFileReadWhole) {
  test::TempDir dir;
  const std::string copc = test::writeCylinderCopc(dir.file("c.copc.laz")).string();
  auto streamedRenderer = createRenderer("cpu", {.storage = PointStorage::Compact});
  const StreamLimits limits{.pointBudget = 100'000'000, .gpuMemoryBytes = 64ull << 20};
  const ScenePlan plan = prepareScene({.files = {copc}}, {.stream = limits});
  ASSERT_EQ(plan.kind, SceneKind::Streamed);
  Scene streamed(plan, {.stream = limits}, *streamedRenderer);
  ASSERT_NE(streamed.streamed(), nullptr);
  EXPECT_EQ(streamed.pointCount(), 40'000u);
  const Image streamedImage = render(streamed);
  EXPECT_GT(test::countLitPixels(streamedImage, RenderSettings{}.background), 100u);

  auto inCoreRenderer = createRenderer("cpu", {.storage = PointStorage::Compact});
  Scene inCore(prepareScene({.files = {copc}}, {.stream = {.inCore = true}}), {}, *inCoreRenderer);
  ASSERT_EQ(inCore.kind(), SceneKind::InCore);
  EXPECT_EQ(inCore.pointCount(), 40'000u);
  const uint64_t differing = test::countDifferentPixels(streamedImage, render(inCore));
  // The stream stops refining where a node's points are closer than a pixel, so it draws fewer
  // points than the whole file: a few pixels differ, not the picture.
  EXPECT_LE(differing, uint64_t(kWidth) * kHeight / 20) << differing << " pixels differ";
}

TEST(RenderConverged, StopsAtTheTimeLimitWithWhatIsResident) {
  test::TempDir dir;
  const std::string copc = test::writeCylinderCopc(dir.file("c.copc.laz")).string();
  auto renderer = createRenderer("cpu", {.storage = PointStorage::Compact});
  const StreamLimits limits{.pointBudget = 100'000'000, .gpuMemoryBytes = 64ull << 20};
  Scene scene(prepareScene({.files = {copc}}, {.stream = limits}), {.stream = limits}, *renderer);
  const Camera camera =
      startCamera(scene.kind(), scene.worldBounds(), float(kWidth) / float(kHeight), {});
  Image image(kWidth, kHeight, test::kPoisonPixel);
  const ConvergedRender stopped = renderConverged(
      scene, camera, {}, {image.pixels.data(), kWidth, kHeight, MemorySpace::Host}, 0.0);
  EXPECT_FALSE(stopped.converged) << "the root alone is not the view";
  EXPECT_LT(scene.streamed()->stats().pointsDrawn, scene.pointCount());
  EXPECT_EQ(test::countDifferentPixels(image, Image(kWidth, kHeight, test::kPoisonPixel)),
            uint64_t(kWidth) * kHeight)
      << "an image all the same";
}

}  // namespace
}  // namespace pcv
