// Streaming a COPC file through the CPU renderer: the first frame draws the root, a static view
// converges, a tiny GPU budget still converges and evicts what it must, the converged image
// equals the in-core render of the same nodes' points, and closing mid-stream is clean.
// Reads COPC files of other projects' test suites (skipped where absent).
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "pcv/core/error.hpp"
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
  const StreamingStats& stats = cloud.stats();
  ADD_FAILURE() << "no convergence: " << stats.nodesResident << " of " << stats.nodesWanted
                << " wanted nodes resident, " << stats.nodesPending << " pending, "
                << stats.residentPoints << " points resident in " << stats.nodesCached << " nodes";
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
    UninitializedVector<Point> colored;
    coloredPoints(file->decodeNode(node), fixed, colored);
    all.push_back(inCore->addSet(colored));
  }
  EXPECT_EQ(
      test::countDifferentPixels(image, renderSets(*inCore, all, camera, cloud.origin(), 640, 360)),
      0u);
}

TEST(StreamedCloud, ConvergedViewIsTheSameImageOnBothBackends) {
  PCV_OPEN_SAMPLE(file, "lone-star.copc.laz");
  std::string whyNot;
  if (!cudaAvailable(&whyNot)) GTEST_SKIP() << whyNot;
  const Camera camera = frameBounds(file->statedBounds(), 16.0f / 9.0f);
  std::vector<Image> images;
  for (const char* backend : {"cpu", "cuda"}) {
    auto renderer = createRenderer(backend, {.storage = PointStorage::Compact});
    StreamedCloud cloud(file, *renderer, {.gpuMemoryBytes = 64ull << 20});
    std::vector<PointSetId> sets;
    ASSERT_GT(convergeFrames(cloud, camera, 640, 360, sets), 0) << backend;
    images.push_back(renderSets(*renderer, sets, camera, cloud.origin(), 640, 360));
  }
  EXPECT_GT(test::countLitPixels(images[0], kOpaqueBlack), 5'000u);
  EXPECT_EQ(test::countDifferentPixels(images[0], images[1]), 0u);
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
  // Room for about 300 k of the 519 k points; the point budget asks for 250 k. Many decoders
  // deliver nodes in any order, so evictions leave holes a node may not fit (the pool repacks).
  StreamedCloud cloud(file, *renderer,
                      {.pointBudget = 250'000, .gpuMemoryBytes = 300'000 * 8, .decodeThreads = 15});
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

TEST(StreamedCloud, KeepOnlyWantedLeavesExactlyTheDrawnSets) {
  PCV_OPEN_SAMPLE(file, "lone-star.copc.laz");
  auto renderer = createRenderer("cpu", {.storage = PointStorage::Compact});
  StreamedCloud cloud(file, *renderer, {.gpuMemoryBytes = 64ull << 20});
  const Box3d box = cloud.bounds();
  std::vector<PointSetId> sets;
  // A converged overview, then a close view: the overview's nodes stay cached until asked to go.
  ASSERT_GT(convergeFrames(cloud, frameBounds(box, 16.0f / 9.0f), 320, 180, sets), 0);
  const Camera close = Camera::lookingFrom(box.center() - glm::dvec3(5.0, 0.0, 0.0), 0.0f, 0.0f);
  ASSERT_GT(convergeFrames(cloud, close, 320, 180, sets), 0);
  uint64_t drawn = 0;
  for (PointSetId set : sets) drawn += renderer->pointCount(set);
  EXPECT_GE(renderer->pointCount(), drawn);
  cloud.keepOnlyWanted();
  EXPECT_EQ(renderer->pointCount(), drawn) << "the renderer holds the drawn sets and no others";
  EXPECT_EQ(cloud.stats().nodesResident, sets.size());
}

TEST(StreamedCloud, PointBudgetIsClampedToWhatTheRootAndThePoolAllow) {
  PCV_OPEN_SAMPLE(file, "lone-star.copc.laz");
  auto renderer = createRenderer("cpu", {.storage = PointStorage::Compact});
  StreamedCloud cloud(file, *renderer, {.pointBudget = 1, .gpuMemoryBytes = 200'000 * 8});
  EXPECT_GT(cloud.pointBudget(), 1u) << "a frame draws the root whole";
  cloud.setPointBudget(uint64_t(1) << 40);
  EXPECT_EQ(cloud.pointBudget(), cloud.maxPointBudget());
  EXPECT_LT(cloud.maxPointBudget(), 200'000u);
}

TEST(StreamedCloud, GpuBudgetBelowTheRootIsAClearError) {
  PCV_OPEN_SAMPLE(file, "lone-star.copc.laz");
  auto renderer = createRenderer("cpu", {.storage = PointStorage::Compact});
  try {
    StreamedCloud cloud(file, *renderer, {.gpuMemoryBytes = 1000 * 8});
    FAIL() << "a pool of 1000 points cannot hold the root";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("root node"), std::string::npos) << error.what();
  }
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

TEST(StreamedCloud, ColorsBy16BitRgbLikeTheFileReader) {
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
