// Streaming a COPC file through the CPU renderer: the first frame draws the root, a static view
// converges, a tiny GPU budget still converges and evicts what it must, the converged image
// equals the in-core render of the same nodes' points, and closing mid-stream is clean.
// Reads COPC files of other projects' test suites (skipped where absent).
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "pcv/core/camera_framing.hpp"
#include "pcv/raster/view_setup.hpp"
#include "pcv/stream/node_selection.hpp"
#include "pcv/stream/streamed_cloud.hpp"
#include "test_support.hpp"

namespace pcv {
namespace {

std::shared_ptr<const CopcFile> openSample(const char* name) {
  const std::filesystem::path path = test::testDataDir() / "laz-corpus" / name;
  if (test::testDataDir().empty() || !std::filesystem::exists(path)) return nullptr;
  return std::make_shared<const CopcFile>(path);
}

#define PCV_OPEN_SAMPLE(variable, name)   \
  const auto variable = openSample(name); \
  if (!variable) GTEST_SKIP() << name << " not found in the shared data"

/// Frames until the stream converges (at most ~10 s); the number of frames it took.
int convergeFrames(StreamedCloud& cloud, const Camera& camera, int width, int height,
                   std::vector<PointSetId>& sets) {
  for (int frame = 1; frame <= 2000; ++frame) {
    sets = cloud.update(camera, width, height);
    if (cloud.converged()) return frame;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ADD_FAILURE() << "no convergence";
  return -1;
}

Image renderSets(Renderer& renderer, const std::vector<PointSetId>& sets, const Camera& camera,
                 const glm::dvec3& origin, int width, int height) {
  Image image(width, height, test::kPoisonPixel);
  renderer.render(sets, makeViewTransform(camera, width, height, origin), {},
                  {image.pixels.data(), width, height, MemorySpace::Host});
  return image;
}

TEST(StreamedCloud, FirstFrameDrawsTheRootAndAStaticViewConverges) {
  PCV_OPEN_SAMPLE(file, "lone-star.copc.laz");
  auto renderer = createRenderer("cpu", {.storage = PointStorage::Compact});
  // Refined to the last level (points closer than a pixel still wanted): the whole cloud.
  StreamedCloud cloud(
      file, *renderer,
      {.pointBudget = 100'000'000, .gpuMemoryBytes = 64ull << 20, .refineSpacingPx = 0.0});
  const Camera camera = frameBounds(cloud.bounds(), 16.0f / 9.0f);
  const std::vector<PointSetId> first = cloud.update(camera, 640, 360);
  ASSERT_FALSE(first.empty()) << "the root is resident from the start";
  std::vector<PointSetId> sets;
  const int frames = convergeFrames(cloud, camera, 640, 360, sets);
  EXPECT_GT(frames, 0);
  EXPECT_EQ(cloud.stats().pointsDrawn, file->pointCount()) << "the whole small cloud is wanted";
  const Image image = renderSets(*renderer, sets, camera, cloud.origin(), 640, 360);
  EXPECT_EQ(test::countLitPixels(image, test::kPoisonPixel), image.pixels.size());
  EXPECT_GT(test::countLitPixels(image, kOpaqueBlack), 5'000u);
}

TEST(StreamedCloud, ConvergedImageEqualsTheInCoreRenderOfTheSamePoints) {
  PCV_OPEN_SAMPLE(file, "lone-star.copc.laz");
  auto streamed = createRenderer("cpu", {.storage = PointStorage::Compact});
  StreamedCloud cloud(file, *streamed, {.gpuMemoryBytes = 64ull << 20});
  const Camera camera = frameBounds(cloud.bounds(), 16.0f / 9.0f);
  std::vector<PointSetId> sets;
  convergeFrames(cloud, camera, 640, 360, sets);
  const Image image = renderSets(*streamed, sets, camera, cloud.origin(), 640, 360);
  // In core: every node decoded and added in the order the stream draws them.
  auto inCore = createRenderer("cpu", {.storage = PointStorage::Compact});
  const OctreeIndex tree(file->hierarchy());
  ColoringOptions fixed;
  fixed.mode = cloud.coloring().mode;
  fixed.map = cloud.coloring().map;
  fixed.range = cloud.coloring().range;
  std::vector<PointSetId> all;
  for (uint32_t node : selectNodes(
           tree, {.camera = camera, .widthPx = 640, .heightPx = 360, .pointBudget = ~0ull})) {
    if (tree.node(node).pointCount == 0) continue;
    UninitializedVector<Point> coloured;
    coloredPoints(file->decodeNode(node), fixed, coloured);
    all.push_back(inCore->addSet(coloured));
  }
  EXPECT_EQ(
      test::countDifferentPixels(image, renderSets(*inCore, all, camera, cloud.origin(), 640, 360)),
      0u);
}

TEST(StreamedCloud, EveryNodeStreamedCoversWhatTheWholeFileDoes) {
  PCV_OPEN_SAMPLE(file, "lone-star.copc.laz");
  auto streamed = createRenderer("cpu", {.storage = PointStorage::Compact});
  StreamedCloud cloud(file, *streamed, {.gpuMemoryBytes = 64ull << 20, .refineSpacingPx = 0.0});
  const Camera camera = frameBounds(cloud.bounds(), 16.0f / 9.0f);
  std::vector<PointSetId> sets;
  convergeFrames(cloud, camera, 640, 360, sets);
  EXPECT_EQ(cloud.stats().pointsDrawn, file->pointCount());
  // The file read whole (offsets from its own origin, so positions round differently by a float
  // ulp here and there): the same pixels lit, to a few edge pixels.
  const PointCloud whole = readPointCloud(file->path());
  auto inCore = createRenderer("cpu", {.storage = PointStorage::Compact});
  inCore->addSet(whole.points);
  const Image a = renderSets(*streamed, sets, camera, cloud.origin(), 640, 360);
  Image b(640, 360, test::kPoisonPixel);
  inCore->render(makeViewTransform(camera, 640, 360, whole.origin), {},
                 {b.pixels.data(), 640, 360, MemorySpace::Host});
  const double litA = double(test::countLitPixels(a, kOpaqueBlack));
  const double litB = double(test::countLitPixels(b, kOpaqueBlack));
  EXPECT_GT(litB, 5000.0);
  EXPECT_NEAR(litA, litB, 0.002 * litB);
}

TEST(StreamedCloud, TinyGpuBudgetStillConvergesOnWhatItWants) {
  PCV_OPEN_SAMPLE(file, "lone-star.copc.laz");
  auto renderer = createRenderer("cpu", {.storage = PointStorage::Compact});
  // Room for about 300 k of the 519 k points; the point budget asks for 250 k.
  StreamedCloud cloud(file, *renderer, {.pointBudget = 250'000, .gpuMemoryBytes = 300'000 * 8});
  const Box3d box = cloud.bounds();
  std::vector<PointSetId> sets;
  // Two views that want different nodes: the second evicts what only the first wanted.
  const Camera left = Camera::lookingFrom(box.center() - glm::dvec3(25.0, 0.0, 0.0), 0.0f, 0.0f);
  const Camera right = Camera::lookingFrom(box.center() + glm::dvec3(25.0, 0.0, 0.0), 180.0f, 0.0f);
  EXPECT_GT(convergeFrames(cloud, left, 320, 180, sets), 0);
  EXPECT_LE(cloud.stats().pointsDrawn, 250'000u);
  EXPECT_GT(convergeFrames(cloud, right, 320, 180, sets), 0);
  EXPECT_LE(cloud.stats().residentPoints, 300'000u);
  EXPECT_LE(renderer->residentBytes(), 300'000u * 8 * 105 / 100);  // the pool's batch slots
}

TEST(StreamedCloud, ClosingWhileNodesDecodeIsClean) {
  PCV_OPEN_SAMPLE(file, "lone-star.copc.laz");
  auto renderer = createRenderer("cpu", {.storage = PointStorage::Compact});
  for (int attempt = 0; attempt < 5; ++attempt) {
    StreamedCloud cloud(file, *renderer, {.gpuMemoryBytes = 64ull << 20, .decodeThreads = 2});
    cloud.update(frameBounds(cloud.bounds(), 1.0f), 256, 256);  // decodes start, then it goes
  }
  EXPECT_EQ(renderer->pointCount(), 0u) << "every set removed";
}

TEST(StreamedCloud, ColoursBy16BitRgbLikeTheFileReader) {
  PCV_OPEN_SAMPLE(file, "1.2-with-color.copc.laz");
  auto renderer = createRenderer("cpu");
  StreamedCloud cloud(file, *renderer, {.gpuMemoryBytes = 16ull << 20, .refineSpacingPx = 0.0});
  std::vector<PointSetId> sets;
  const Camera camera = frameBounds(cloud.bounds(), 1.0f);
  convergeFrames(cloud, camera, 256, 256, sets);
  // Every point's colour as the LAZ reader gives it: the multiset of colours agrees.
  const PointCloud whole = readPointCloud(file->path());
  std::vector<uint32_t> expected, streamed;
  for (const Point& p : whole.points) expected.push_back(p.rgba);
  for (PointSetId set : sets) {
    for (const Point& p : renderer->downloadPoints(set)) streamed.push_back(p.rgba);
  }
  std::sort(expected.begin(), expected.end());
  std::sort(streamed.begin(), streamed.end());
  EXPECT_EQ(streamed, expected);
}

}  // namespace
}  // namespace pcv
