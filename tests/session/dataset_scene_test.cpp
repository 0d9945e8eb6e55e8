// Datasets through the session: a folder, several COPC files, or LAS files past the memory limit
// stream as one forest of tiles (no COPC cache); LAS files that fit still merge in core, as does
// a folder with --in-core; tiles in two coordinate systems are refused; and the converged render
// of a folder draws every point of every tile, as the tiles read whole do.
#include <gtest/gtest.h>

#include "pcv/core/error.hpp"
#include "pcv/session/render_converged.hpp"
#include "pcv/session/scene.hpp"
#include "pcv/session/scene_camera.hpp"
#include "session_test_files.hpp"
#include "synthetic_tiles.hpp"
#include "test_support.hpp"

namespace pcv {
namespace {

constexpr int kWidth = 160, kHeight = 90;

/// Four tiles in a 2 x 2 grid: two COPC, two LAS; 10 000 points in all.
std::vector<std::string> writeTiles(const std::filesystem::path& folder) {
  std::filesystem::create_directories(folder);
  return {test::writeCopcTile(folder / "a.copc.laz", 0, 0, 60).string(),
          test::writeLasTile(folder / "b.las", 1, 0, 50).string(),
          test::writeCopcTile(folder / "c.copc.laz", 0, 1, 40).string(),
          test::writeLasTile(folder / "d.las", 1, 1, 30).string()};
}

TEST(DatasetPlan, AFolderStreamsAsOneForestOfItsTiles) {
  test::TempDir dir;
  const std::vector<std::string> tiles = writeTiles(dir.file("tiles"));
  const ScenePlan plan = planScene({.files = {dir.file("tiles").string()}}, {});
  EXPECT_EQ(plan.kind, SceneKind::Streamed);
  ASSERT_TRUE(plan.tiles);
  EXPECT_EQ(plan.files, tiles) << "the folder's tiles, sorted";
  EXPECT_EQ(plan.tiles->pointCount, 3600u + 2500u + 1600u + 900u);
  EXPECT_TRUE(plan.cachedFrom.empty()) << "a dataset is never converted";
  EXPECT_EQ(plan.rendererOptions().storage, PointStorage::Compact);

  const ScenePlan inCore = planScene({.files = {dir.file("tiles").string()}}, {.inCore = true});
  EXPECT_EQ(inCore.kind, SceneKind::InCore);
  EXPECT_EQ(inCore.files, tiles);
}

TEST(DatasetPlan, SeveralCopcFilesStreamAndLasFilesPastTheLimitStreamUncached) {
  test::TempDir dir;
  const std::vector<std::string> tiles = writeTiles(dir.file("tiles"));
  const ScenePlan copc = planScene({.files = {tiles[0], tiles[2]}}, {});
  EXPECT_EQ(copc.kind, SceneKind::Streamed);
  ASSERT_TRUE(copc.tiles);
  EXPECT_EQ(copc.tiles->count(TileFormat::Copc), 2u);

  const ScenePlan mixed = planScene({.files = {tiles[0], tiles[1]}}, {});
  EXPECT_EQ(mixed.kind, SceneKind::Streamed);
  ASSERT_TRUE(mixed.tiles);

  const ScenePlan fits = planScene({.files = {tiles[1], tiles[3]}}, {.memoryBytes = 1ull << 30});
  EXPECT_EQ(fits.kind, SceneKind::InCore) << "LAS files that fit merge as before";
  EXPECT_FALSE(fits.tiles);

  const ScenePlan past = planScene({.files = {tiles[1], tiles[3]}}, {.memoryBytes = 1000});
  EXPECT_EQ(past.kind, SceneKind::Streamed);
  ASSERT_TRUE(past.tiles);
  EXPECT_TRUE(past.cachedFrom.empty());
  EXPECT_FALSE(past.cacheMissing);
  EXPECT_EQ(past.tiles->pointCount, 2500u + 900u);
}

TEST(DatasetPlan, TilesInTwoCoordinateSystemsAreRefused) {
  test::TempDir dir;
  const std::filesystem::path folder = dir.file("tiles");
  std::filesystem::create_directories(folder);
  const auto tile = [&](int column, const std::string& wkt) {
    return test::withWkt(test::lasWithBounds(test::gridTile(column, 0, 4)), wkt);
  };
  test::writeBytes(folder / "a.las", tile(0, "PROJCS[\"A\"]"));
  test::writeBytes(folder / "b.las", tile(1, "PROJCS[\"B\"]"));
  EXPECT_THROW(planScene({.files = {folder.string()}}, {}), InputError);
  EXPECT_NO_THROW(planScene({.files = {folder.string()}}, {.inCore = true}))
      << "files merged in core are not compared, as before";
}

TEST(DatasetScene, AFolderConvergesToEveryPointOfEveryTile) {
  test::TempDir dir;
  const std::vector<std::string> tiles = writeTiles(dir.file("tiles"));
  const SceneSources sources{.files = {dir.file("tiles").string()}};
  const ScenePlan plan = planScene(sources, {});
  auto renderer = createRenderer("cpu", plan.rendererOptions());
  Scene scene(plan, {}, *renderer);
  EXPECT_EQ(scene.kind(), SceneKind::Streamed);
  EXPECT_EQ(scene.pointCount(), 8600u);
  EXPECT_NEAR(scene.worldBounds().min.x, test::kEast, 1.0);
  EXPECT_NEAR(scene.worldBounds().max.y, test::kNorth + 2 * test::kTileSize, 2.0);
  EXPECT_TRUE(scene.hasColor());

  const auto draw = [&](Scene& opened) {
    const Camera camera =
        startCamera(opened.kind(), opened.worldBounds(), float(kWidth) / float(kHeight), {});
    Image image(kWidth, kHeight, test::kPoisonPixel);
    const ConvergedRender done = renderConverged(
        opened, camera, {}, {image.pixels.data(), kWidth, kHeight, MemorySpace::Host}, 60.0);
    EXPECT_TRUE(done.converged);
    return image;
  };
  const Image image = draw(scene);
  EXPECT_EQ(scene.streamed()->stats().pointsDrawn, 8600u) << "every point of every tile";
  EXPECT_EQ(test::countLitPixels(image, test::kPoisonPixel), uint64_t(kWidth) * kHeight);

  auto inCoreRenderer = createRenderer("cpu");
  const std::unique_ptr<Scene> inCore =
      openScene({.files = tiles}, {.stream = {.inCore = true}}, *inCoreRenderer);
  EXPECT_EQ(inCore->pointCount(), 8600u);
  const uint64_t lit = test::countLitPixels(draw(*inCore), RenderSettings{}.background);
  EXPECT_GT(lit, uint64_t(kWidth * kHeight / 10));
  EXPECT_NEAR(double(test::countLitPixels(image, RenderSettings{}.background)), double(lit),
              0.02 * double(lit));
}

}  // namespace
}  // namespace pcv
