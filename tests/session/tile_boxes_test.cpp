// Tile boxes: points along every edge of every box, within their budget; drawn by pcv render
// --tile-boxes on the CPU backend where the boxes' top edges project (in front of the tiles'
// points, so the depth test keeps them), absent without it; and the same pixels on CUDA.
#include <gtest/gtest.h>

#include <cmath>

#include "pcv/raster/view_setup.hpp"
#include "pcv/session/render_converged.hpp"
#include "pcv/session/scene.hpp"
#include "pcv/session/scene_camera.hpp"
#include "pcv/session/tile_boxes.hpp"
#include "io_test_util.hpp"
#include "synthetic_tiles.hpp"
#include "test_support.hpp"

namespace pcv {
namespace {

constexpr int kWidth = 320, kHeight = 180;

/// Whether `v` is `low` or `high` (float offsets of double corners: within a float's rounding).
bool atEither(float v, double low, double high) {
  return std::abs(double(v) - low) < 1e-3 || std::abs(double(v) - high) < 1e-3;
}

TEST(TileBoxes, PointsLieOnTheEdgesWithinTheBudget) {
  const glm::dvec3 origin(500000.0, 5000000.0, 0.0);
  const std::vector<Box3d> boxes = {
      {origin + glm::dvec3(0, 0, 100), origin + glm::dvec3(100, 100, 110)},
      {origin + glm::dvec3(100, 0, 95), origin + glm::dvec3(200, 100, 105)},
      {},  // an empty box is skipped
  };
  const std::vector<Point> points = tileBoxPoints(boxes, origin, {.maxPoints = 10'000});
  ASSERT_FALSE(points.empty());
  EXPECT_LE(points.size(), 10'000u);
  for (const Point& p : points) {
    // On an edge of one of the boxes: two of the coordinates at that box's faces.
    bool onEdge = false;
    for (size_t b = 0; b < 2; ++b) {
      const glm::dvec3 low = boxes[b].min - origin, high = boxes[b].max - origin;
      const bool inside = p.x >= low.x - 1e-3 && p.x <= high.x + 1e-3 && p.y >= low.y - 1e-3 &&
                          p.y <= high.y + 1e-3 && p.z >= low.z - 1e-3 && p.z <= high.z + 1e-3;
      const int faces = int(atEither(p.x, low.x, high.x)) + int(atEither(p.y, low.y, high.y)) +
                        int(atEither(p.z, low.z, high.z));
      onEdge = onEdge || (inside && faces >= 2);
    }
    ASSERT_TRUE(onEdge) << p.x << ", " << p.y << ", " << p.z;
    EXPECT_EQ(p.rgba, TileBoxStyle{}.rgba);
  }
  // The spacing: 1/4096 of the largest side (200) apart along the 100-long edges, so about 2 048
  // points an edge, 12 edges a box, unless the budget says fewer.
  const std::vector<Point> dense = tileBoxPoints(boxes, origin, {.maxPoints = 1'000'000});
  EXPECT_NEAR(double(dense.size()), 2.0 * (8 * 2049 + 4 * 206), 100.0);
  // A budget too small for more than the corners gives the corners.
  EXPECT_EQ(tileBoxPoints(boxes, origin, {.maxPoints = 10}).size(), 2u * 12 * 2);
  // A flat box (a 2D tile) is its 4 edges once.
  const Box3d flat{origin, origin + glm::dvec3(10, 10, 0)};
  EXPECT_EQ(tileBoxPoints(std::span(&flat, 1), origin, {.maxPoints = 8}).size(), 8u);
}

/// A folder of 2 x 2 LAS tiles rendered to convergence on `backend`, with or without boxes.
Image renderTiles(const std::filesystem::path& folder, bool boxes, const std::string& backend,
                  ViewTransform* viewOut = nullptr, glm::dvec3* originOut = nullptr) {
  const SceneSources sources{.files = {folder.string()}};
  const ScenePlan plan = planScene(sources, {});
  auto renderer = createRenderer(backend, plan.rendererOptions());
  Scene scene(plan, {.tileBoxes = boxes}, *renderer);
  const Camera camera =
      startCamera(scene.kind(), scene.worldBounds(), float(kWidth) / float(kHeight), {});
  Image image(kWidth, kHeight, test::kPoisonPixel);
  const ConvergedRender done = renderConverged(
      scene, camera, {}, {image.pixels.data(), kWidth, kHeight, MemorySpace::Host}, 60.0);
  EXPECT_TRUE(done.converged);
  if (viewOut) *viewOut = makeViewTransform(camera, kWidth, kHeight, scene.origin());
  if (originOut) *originOut = scene.origin();
  return image;
}

std::filesystem::path writeFolder(const test::TempDir& dir) {
  const std::filesystem::path folder = dir.file("tiles");
  std::filesystem::create_directories(folder);
  for (int column = 0; column < 2; ++column) {
    for (int row = 0; row < 2; ++row) {
      test::writeLasTile(folder / ("t" + std::to_string(column) + std::to_string(row) + ".las"),
                         column, row, 40);
    }
  }
  return folder;
}

uint64_t countColor(const Image& image, uint32_t rgba) {
  return uint64_t(std::count(image.pixels.begin(), image.pixels.end(), rgba));
}

TEST(TileBoxes, RenderDrawsTheOutlinesWhereTheyProjectOnTheCpuBackend) {
  test::TempDir dir;
  const std::filesystem::path folder = writeFolder(dir);
  const uint32_t amber = TileBoxStyle{}.rgba;
  EXPECT_EQ(countColor(renderTiles(folder, false, "cpu"), amber), 0u)
      << "no box without --tile-boxes (the tiles' own colours are not amber)";
  ViewTransform view{};
  glm::dvec3 origin(0.0);
  const Image image = renderTiles(folder, true, "cpu", &view, &origin);
  ASSERT_GT(countColor(image, amber), uint64_t(kWidth));

  // The highest boxes' top edges lie above every point, seen from above: they are drawn where
  // they project (within a pixel: the compact layout quantizes positions to 1/2046 of a batch's
  // box). Left out: their edge at the largest x, where the tiles' highest points lie (z rises
  // with x) at the same depth, and win some ties; and their far edge, seen at a grazing angle
  // behind points just in front of it and a little lower, which are closer.
  const TileSet tiles = readTileSet(expandTilePaths({folder.string()}));
  std::vector<Box3d> boxes;
  for (const Tile& tile : tiles.tiles) boxes.push_back(tile.bounds);
  size_t onTop = 0, amberOnTop = 0;
  for (const Point& p : tileBoxPoints(boxes, origin)) {
    if (std::abs(double(p.z) + origin.z - tiles.bounds.max.z) > 1e-3) continue;
    if (std::abs(double(p.x) + origin.x - tiles.bounds.max.x) < 1e-3) continue;
    if (std::abs(double(p.y) + origin.y - tiles.bounds.max.y) < 1e-3) continue;
    PixelHit hit{};
    if (!projectPoint(view, p.x, p.y, p.z, hit)) continue;
    ++onTop;
    bool near = false;
    for (int dy = -1; dy <= 1; ++dy) {
      for (int dx = -1; dx <= 1; ++dx) {
        const int x = hit.x + dx, y = hit.y + dy;
        near = near || (x >= 0 && y >= 0 && x < kWidth && y < kHeight && image.at(x, y) == amber);
      }
    }
    amberOnTop += near;
  }
  ASSERT_GT(onTop, 1000u);
  EXPECT_GT(double(amberOnTop), 0.98 * double(onTop)) << amberOnTop << " of " << onTop;
}

TEST(TileBoxes, CudaDrawsTheSamePixelsAsTheCpuBackend) {
  std::string whyNot;
  if (!cudaAvailable(&whyNot)) GTEST_SKIP() << whyNot;
  test::TempDir dir;
  const std::filesystem::path folder = writeFolder(dir);
  const Image cpu = renderTiles(folder, true, "cpu"), cuda = renderTiles(folder, true, "cuda");
  EXPECT_GT(countColor(cuda, TileBoxStyle{}.rgba), uint64_t(kWidth));
  EXPECT_EQ(cpu.pixels, cuda.pixels);
}

}  // namespace
}  // namespace pcv
