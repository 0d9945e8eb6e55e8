// Filters on a streamed COPC file: nodes decoded with their filter data (StreamLimits
// ::filterData) are filtered as in-core sets are. The cylinders' records are all class 1, first
// of one return, with an intensity from their colour's luminance.
#include <gtest/gtest.h>

#include "io_test_util.hpp"
#include "pcv/session/render_converged.hpp"
#include "pcv/session/scene.hpp"
#include "pcv/session/scene_camera.hpp"
#include "session_test_files.hpp"
#include "test_support.hpp"

namespace pcv {
namespace {

constexpr int kWidth = 200, kHeight = 150;

Image render(Scene& scene, const PointFilter& filter) {
  const Camera camera =
      startCamera(scene.kind(), scene.worldBounds(), float(kWidth) / float(kHeight), {});
  RenderSettings settings;
  settings.quality.edl = EdlMode::Off;
  settings.filter = filter;
  Image image(kWidth, kHeight, test::kPoisonPixel);
  const ConvergedRender done = renderConverged(
      scene, camera, settings, {image.pixels.data(), kWidth, kHeight, MemorySpace::Host}, 30.0);
  EXPECT_TRUE(done.converged);
  return image;
}

TEST(StreamedFilter, StreamedNodesAreFilteredAsInCoreSetsAre) {
  test::TempDir dir;
  const std::string copc = test::writeCylinderCopc(dir.file("c.copc.laz")).string();
  auto renderer = createRenderer("cpu", {.storage = PointStorage::Compact});
  StreamLimits limits{.pointBudget = 100'000'000, .gpuMemoryBytes = 64ull << 20};
  limits.filterData = true;
  limits.rangeAttribute = "intensity";
  Scene scene(prepareScene({.files = {copc}}, {.stream = limits}), {.stream = limits}, *renderer);
  ASSERT_EQ(scene.kind(), SceneKind::Streamed);
  const Image all = render(scene, {});
  const uint64_t lit = test::countLitPixels(all, kOpaqueBlack);
  ASSERT_GT(lit, 500u);
  PointFilter classOne, classTwo, range;
  classOne.classes = parseClassList("1", "--classes");
  classTwo.classes = parseClassList("2", "--classes");
  range.ranges = {{"intensity", 0.0, 30000.0}};
  EXPECT_EQ(test::countDifferentPixels(render(scene, classOne), all), 0u);
  EXPECT_EQ(test::countLitPixels(render(scene, classTwo), kOpaqueBlack), 0u);
  const uint64_t ranged = test::countLitPixels(render(scene, range), kOpaqueBlack);
  EXPECT_GT(ranged, 50u);
  EXPECT_LT(ranged, lit);
}

TEST(StreamedFilter, WithoutFilterDataAFilterDrawsNothing) {
  test::TempDir dir;
  const std::string copc = test::writeCylinderCopc(dir.file("c.copc.laz")).string();
  auto renderer = createRenderer("cpu", {.storage = PointStorage::Compact});
  const StreamLimits limits{.pointBudget = 100'000'000, .gpuMemoryBytes = 64ull << 20};
  Scene scene(prepareScene({.files = {copc}}, {.stream = limits}), {.stream = limits}, *renderer);
  PointFilter classOne;
  classOne.classes = parseClassList("1", "--classes");
  EXPECT_GT(test::countLitPixels(render(scene, {}), kOpaqueBlack), 500u);
  EXPECT_EQ(test::countLitPixels(render(scene, classOne), kOpaqueBlack), 0u);
}

}  // namespace
}  // namespace pcv
