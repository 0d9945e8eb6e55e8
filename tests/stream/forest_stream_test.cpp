// Streaming a forest (several octrees, as a set of tiles is) through the CPU renderer: every tree
// converges under one budget, the converged image equals the in-core render of the same nodes,
// a budget smaller than the forest is shared by its trees, an in-core set is drawn and picked
// beside the stream (and one added mid-stream grows the renderer without touching the stream's
// nodes), a forest made of several sources moves their points to one origin, and an overview
// that stands in for the trees is drawn exactly while a visible root of theirs is not, and the
// loader threads' seconds add up to their time, spent decoding, laying out or waiting, and nodes
// decoded at once share the cores.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <random>
#include <thread>

#include "pcv/core/camera_framing.hpp"
#include "pcv/core/parallel.hpp"
#include "pcv/raster/view_setup.hpp"
#include "pcv/stream/copc_node_source.hpp"
#include "pcv/stream/forest_node_source.hpp"
#include "pcv/stream/node_selection.hpp"
#include "pcv/stream/streamed_cloud.hpp"
#include "pcv/stream/tile_sources.hpp"
#include "stream_images.hpp"
#include "synthetic_node_source.hpp"
#include "test_support.hpp"

namespace pcv {
namespace {

using test::countColor;
using test::render;
using test::SyntheticNodeSource;

/// Frames until the stream converges (at most ~10 s); the last frame's sets.
std::vector<PointSetId> converge(StreamedCloud& cloud, const Camera& camera, int width,
                                 int height) {
  for (int frame = 0; frame < 2000; ++frame) {
    std::vector<PointSetId> sets = cloud.update(camera, width, height);
    if (cloud.converged()) return sets;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ADD_FAILURE() << "no convergence: " << cloud.stats().nodesResident << " of "
                << cloud.stats().nodesWanted << " wanted nodes resident";
  return {};
}

TEST(StreamedForest, EveryTreeConvergesToTheInCoreImageOfItsNodes) {
  const auto source = std::make_shared<const SyntheticNodeSource>(3, 3, 2000);
  auto renderer = createRenderer("cpu", {.storage = PointStorage::Compact});
  StreamedCloud cloud(source, *renderer,
                      {.gpuMemoryBytes = 64ull << 20, .decodeThreads = 3, .refineSpacingPx = 0.0});
  EXPECT_DOUBLE_EQ(cloud.bounds().max.x - cloud.bounds().min.x, 400.0) << "all three roots";
  const Camera camera = frameBounds(cloud.bounds(), 16.0f / 9.0f);
  const std::vector<PointSetId> sets = converge(cloud, camera, 320, 180);
  EXPECT_EQ(cloud.stats().pointsDrawn, source->forest().nodes.size() * 2000u)
      << "refined to the last level: every node of every tree";
  const Image streamed = render(*renderer, sets, camera, cloud.origin());
  for (uint32_t tree = 0; tree < 3; ++tree) {
    EXPECT_GT(countColor(streamed, SyntheticNodeSource::treeColor(tree)), 500) << tree;
  }
  // In core: the same nodes decoded and added in the order the stream draws them.
  auto inCore = createRenderer("cpu", {.storage = PointStorage::Compact});
  const OctreeIndex forest(source->forest());
  std::vector<PointSetId> all;
  for (uint32_t node : selectNodes(forest, {.camera = camera,
                                           .widthPx = 320,
                                           .heightPx = 180,
                                           .pointBudget = ~0ull,
                                           .refineSpacingPx = 0.0})) {
    all.push_back(inCore->addSet(source->decodeNode(node).points));
  }
  EXPECT_EQ(test::countDifferentPixels(streamed, render(*inCore, all, camera, cloud.origin())), 0u);
}

TEST(StreamedForest, ABudgetSmallerThanTheForestIsSharedByItsTrees) {
  const auto source = std::make_shared<const SyntheticNodeSource>(2, 4, 1000);
  auto renderer = createRenderer("cpu", {.storage = PointStorage::Compact});
  StreamedCloud cloud(source, *renderer,
                      {.pointBudget = 30'000,
                       .gpuMemoryBytes = 40'000 * 8,
                       .decodeThreads = 2,
                       .refineSpacingPx = 0.0});
  const Camera camera = frameBounds(cloud.bounds(), 16.0f / 9.0f);
  const std::vector<PointSetId> sets = converge(cloud, camera, 320, 180);
  EXPECT_LE(cloud.stats().pointsDrawn, 30'000u);
  EXPECT_GT(cloud.stats().pointsDrawn, 25'000u) << "the budget is used";
  EXPECT_LE(renderer->reservedPointSlots(), 40'000u);
  const Image image = render(*renderer, sets, camera, cloud.origin());
  EXPECT_GT(countColor(image, SyntheticNodeSource::treeColor(0)), 500);
  EXPECT_GT(countColor(image, SyntheticNodeSource::treeColor(1)), 500);
}

TEST(StreamedForest, AnInCoreSetIsDrawnAndPickedBesideTheStream) {
  const auto source = std::make_shared<const SyntheticNodeSource>(2, 2, 3000);
  auto renderer = createRenderer("cpu", {.storage = PointStorage::Compact});
  // A red wall in front of the lower half of the first tree (y < 0), in the stream's coordinates
  // (offsets from its origin); the camera looks along +x at it.
  const uint32_t red = packRgba(255, 0, 0);
  std::vector<Point> wall;
  for (int i = 0; i < 100; ++i) {
    for (int j = 0; j < 100; ++j) {
      wall.push_back({-60.0f, -50.0f + float(i) * 0.5f, -50.0f + float(j), red});
    }
  }
  const PointSetId inCore = renderer->addSet(wall);
  std::vector<PointSetId> sets;
  Camera camera;
  {
    StreamedCloud cloud(source, *renderer, {.gpuMemoryBytes = 16ull << 20, .decodeThreads = 2});
    camera = Camera::lookingFrom(cloud.origin() + glm::dvec3(-300.0, 0.0, 0.0), 0.0f, 0.0f);
    camera.farPlane = 5000.0f;
    sets = converge(cloud, camera, 320, 180);
    EXPECT_GT(cloud.reservedPoints(), 0u);
    sets.push_back(inCore);
    const Image both = render(*renderer, sets, camera, cloud.origin());
    EXPECT_GT(countColor(both, red), 1000);
    EXPECT_GT(countColor(both, SyntheticNodeSource::treeColor(0)), 1000) << "beside the wall";
    const ViewTransform view = makeViewTransform(camera, 320, 180, cloud.origin());
    PixelHit hit{};
    ASSERT_TRUE(projectPoint(view, -60.0f, -25.0f, 0.0f, hit));
    const auto onWall = renderer->pick(SetSelection::only(sets), view, {}, hit.x, hit.y);
    ASSERT_TRUE(onWall);
    EXPECT_EQ(onWall->location.set, inCore);
    ASSERT_TRUE(projectPoint(view, 0.0f, 25.0f, 0.0f, hit));
    const auto onTree = renderer->pick(SetSelection::only(sets), view, {}, hit.x, hit.y);
    ASSERT_TRUE(onTree);
    EXPECT_NE(onTree->location.set, inCore);
  }
  EXPECT_EQ(renderer->sets(), std::vector<PointSetId>{inCore}) << "the stream's sets are gone";
  EXPECT_EQ(renderer->reservedPointSlots(), 0u);
  EXPECT_EQ(renderer->pointCount(), wall.size());
}

TEST(StreamedForest, InCoreSetsAddedWhileStreamingGrowTheRestAndKeepTheStreamsNodes) {
  const auto source = std::make_shared<const SyntheticNodeSource>(2, 3, 2000);
  auto renderer = createRenderer("cpu", {.storage = PointStorage::Compact});
  StreamedCloud cloud(source, *renderer, {.gpuMemoryBytes = 8ull << 20, .decodeThreads = 2});
  const Camera camera = frameBounds(cloud.bounds(), 16.0f / 9.0f);
  const std::vector<PointSetId> sets = converge(cloud, camera, 320, 180);
  const Image before = render(*renderer, sets, camera, cloud.origin());
  const uint64_t bytes = renderer->residentBytes();
  // Far more points than the pool's spare slots: the renderer's memory grows around the pool.
  const std::vector<Point> far(2 * cloud.reservedPoints(), Point{0.0f, 0.0f, 5000.0f, 0});
  const PointSetId inCore = renderer->addSet(far);
  EXPECT_GT(renderer->residentBytes(), bytes);
  EXPECT_EQ(test::countDifferentPixels(before, render(*renderer, sets, camera, cloud.origin())), 0u)
      << "the stream's nodes survive the growth";
  EXPECT_EQ(cloud.update(camera, 320, 180), sets) << "nothing was evicted for it";
  renderer->removeSet(inCore);
  EXPECT_TRUE(cloud.converged());
}

/// An overview of `trees` as a dataset's overview file is: `count` points over the box around
/// their roots, one node.
std::shared_ptr<const NodeSource> overviewOf(const NodeSource& trees, uint64_t count) {
  const Box3d box = OctreeIndex(trees.forest()).bounds();
  PointCloud cloud{.origin = trees.origin(), .hasColor = true};
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (uint64_t i = 0; i < count; ++i) {
    const glm::dvec3 world =
        box.min + glm::dvec3(unit(random), unit(random), unit(random)) * box.size();
    const glm::dvec3 offset = world - cloud.origin;
    cloud.points.push_back(
        {float(offset.x), float(offset.y), float(offset.z), packRgba(128, 128, 128)});
  }
  return std::make_shared<const MemoryNodeSource>(std::move(cloud), box);
}

/// Points a frame drew from an overview of 300 points beside tiles of 1 000-point nodes.
uint64_t overviewPointsDrawn(const StreamedCloud& cloud) {
  return cloud.stats().pointsDrawn % 1000;
}

TEST(StreamedForest, AnOverviewStandsInUntilEveryVisibleTileRootIsDrawn) {
  const auto tiles = std::make_shared<const SyntheticNodeSource>(2, 2, 1000);
  const auto forest = std::make_shared<const ForestNodeSource>(
      std::vector<std::shared_ptr<const NodeSource>>{overviewOf(*tiles, 300), tiles}, 1);
  ASSERT_EQ(forest->forest().trees.size(), 3u);
  EXPECT_TRUE(forest->forest().trees[0].standsIn);
  EXPECT_FALSE(forest->forest().trees[1].standsIn);
  EXPECT_FALSE(forest->forest().trees[2].standsIn);
  const OctreeIndex index(forest->forest());
  const std::vector<int32_t> tileRoots(index.roots().begin() + 1, index.roots().end());
  auto renderer = createRenderer("cpu", {.storage = PointStorage::Compact});
  StreamedCloud cloud(forest, *renderer,
                      {.gpuMemoryBytes = 64ull << 20, .decodeThreads = 2, .refineSpacingPx = 0.0});
  const Camera camera = frameBounds(cloud.bounds(), 16.0f / 9.0f);
  int framesWithOverview = 0;
  for (int frame = 0; frame < 2000 && !cloud.converged(); ++frame) {
    cloud.update(camera, 320, 180);
    const bool rootsDrawn = std::all_of(tileRoots.begin(), tileRoots.end(), [&](int32_t root) {
      return cloud.nodeState(size_t(root)) == NodeState::Resident;
    });
    // The overview's root is resident from the start (the first tree's root is decoded at open).
    if (!rootsDrawn) {
      EXPECT_EQ(overviewPointsDrawn(cloud), 300u) << "frame " << frame;
    }
    framesWithOverview += overviewPointsDrawn(cloud) == 300 ? 1 : 0;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  ASSERT_TRUE(cloud.converged());
  EXPECT_GE(framesWithOverview, 1) << "the first frame draws the overview";
  EXPECT_EQ(cloud.stats().pointsDrawn, tiles->forest().nodes.size() * 1000u)
      << "converged: the tiles alone, the overview stepped aside";
  cloud.keepOnlyWanted();
  EXPECT_NE(cloud.nodeState(size_t(index.roots().front())), NodeState::Resident)
      << "no longer wanted: evicted";
}

TEST(StreamedForest, AnOverviewStaysWhereAVisibleTileRootDoesNotFitTheBudget) {
  const auto tiles = std::make_shared<const SyntheticNodeSource>(2, 2, 1000);
  const auto forest = std::make_shared<const ForestNodeSource>(
      std::vector<std::shared_ptr<const NodeSource>>{overviewOf(*tiles, 300), tiles}, 1);
  auto renderer = createRenderer("cpu", {.storage = PointStorage::Compact});
  // Room for the overview (the largest on screen, first) and one tile root, not the other.
  StreamedCloud cloud(forest, *renderer,
                      {.pointBudget = 1500, .gpuMemoryBytes = 1ull << 20, .decodeThreads = 2});
  converge(cloud, frameBounds(cloud.bounds(), 16.0f / 9.0f), 320, 180);
  EXPECT_EQ(cloud.stats().pointsDrawn, 1300u) << "the overview and one tile's root";
}

/// Another source's nodes as they are: what the sources below change of it is their decode.
class WrappedSource : public NodeSource {
 public:
  explicit WrappedSource(std::shared_ptr<const NodeSource> inner) : inner_(std::move(inner)) {}
  const NodeForest& forest() const override { return inner_->forest(); }
  const glm::dvec3& origin() const override { return inner_->origin(); }
  bool hasColor() const override { return inner_->hasColor(); }
  const std::vector<std::string>& attributeNames() const override {
    return inner_->attributeNames();
  }
  PointCloud decodeNode(size_t node) const override { return inner_->decodeNode(node); }

 private:
  std::shared_ptr<const NodeSource> inner_;
};

/// A source whose every decode takes `delay` longer: the loader's time is mostly decodes.
class SlowSource final : public WrappedSource {
 public:
  SlowSource(std::shared_ptr<const NodeSource> inner, std::chrono::milliseconds delay)
      : WrappedSource(std::move(inner)), delay_(delay) {}
  PointCloud decodeNode(size_t node) const override {
    std::this_thread::sleep_for(delay_);
    return WrappedSource::decodeNode(node);
  }

 private:
  std::chrono::milliseconds delay_;
};

TEST(StreamedForest, TheLoaderThreadsSecondsSayWhereTheirTimeWent) {
  constexpr uint64_t kPointsPerNode = 500;
  constexpr auto kDelay = std::chrono::milliseconds(20);
  const auto source = std::make_shared<const SlowSource>(
      std::make_shared<const SyntheticNodeSource>(2, 3, kPointsPerNode), kDelay);
  auto renderer = createRenderer("cpu", {.storage = PointStorage::Compact});
  // The loader threads start at the end of the constructor (which decodes the root itself):
  // their seconds lie between the stream's age since it was made and since it began.
  const auto beforeOpen = std::chrono::steady_clock::now();
  StreamedCloud cloud(source, *renderer,
                      {.gpuMemoryBytes = 64ull << 20, .decodeThreads = 3, .refineSpacingPx = 0.0});
  const auto afterOpen = std::chrono::steady_clock::now();
  const Camera camera = frameBounds(cloud.bounds(), 1.0f);
  converge(cloud, camera, 128, 128);
  const auto now = std::chrono::steady_clock::now();
  const double elapsed = std::chrono::duration<double>(now - beforeOpen).count();
  const double threadsAge = std::chrono::duration<double>(now - afterOpen).count();
  const StreamingStats stats = cloud.stats();
  EXPECT_EQ(stats.loaderThreads, 3u);
  const uint64_t decodedNodes = stats.decodedPoints / kPointsPerNode;
  EXPECT_GE(decodedNodes, 2u * (1 + 8 + 64) - 1) << "every node but the first root";
  EXPECT_GE(stats.decodeSeconds, 0.9 * double(decodedNodes) * 0.020);
  EXPECT_GT(stats.layoutSeconds, 0.0);
  EXPECT_LT(stats.layoutSeconds, stats.decodeSeconds);
  // Every thread-second is one of the three: decoding, laying out or waiting.
  const double accounted = stats.decodeSeconds + stats.layoutSeconds + stats.loaderIdleSeconds;
  EXPECT_LE(accounted, 3.0 * elapsed + 0.01);
  EXPECT_GE(accounted, 0.8 * 3.0 * threadsAge);
}

/// A source that notes, for each decode, the cores its thread may use (workerCount()).
class CoreNotingSource final : public WrappedSource {
 public:
  using WrappedSource::WrappedSource;
  PointCloud decodeNode(size_t node) const override {
    {
      const std::lock_guard lock(mutex_);
      cores_.push_back(workerCount());
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    return WrappedSource::decodeNode(node);
  }
  std::vector<unsigned> cores() const {
    const std::lock_guard lock(mutex_);
    return cores_;
  }

 private:
  mutable std::mutex mutex_;
  mutable std::vector<unsigned> cores_;
};

TEST(StreamedForest, NodesDecodedTogetherShareTheCores) {
  const auto source = std::make_shared<const CoreNotingSource>(
      std::make_shared<const SyntheticNodeSource>(2, 3, 200));
  auto renderer = createRenderer("cpu", {.storage = PointStorage::Compact});
  {
    StreamedCloud cloud(
        source, *renderer,
        {.gpuMemoryBytes = 64ull << 20, .decodeThreads = 4, .refineSpacingPx = 0.0});
    converge(cloud, frameBounds(cloud.bounds(), 1.0f), 128, 128);
  }
  const unsigned all = workerCount();
  const unsigned quarter = std::max(1u, all / 4);
  const std::vector<unsigned> cores = source->cores();
  ASSERT_GT(cores.size(), 100u);
  EXPECT_EQ(cores.front(), all) << "the first root, decoded by the stream's constructor";
  for (const unsigned count : cores) {
    EXPECT_GE(count, quarter);
    EXPECT_LE(count, all);
  }
  EXPECT_EQ(*std::min_element(cores.begin(), cores.end()), quarter)
      << "four nodes decoding at once take a quarter of the cores each";
}

TEST(ForestNodeSource, MovesEachMembersPointsToTheForestsOrigin) {
  const glm::dvec3 farCorner(500'400.0, 5'000'050.0, 80.0);
  const auto a = std::make_shared<const SyntheticNodeSource>(1, 2, 100);
  const auto b = std::make_shared<const SyntheticNodeSource>(2, 2, 100, farCorner);
  const ForestNodeSource forest({a, b});
  EXPECT_EQ(forest.forest().trees.size(), 3u);
  EXPECT_EQ(forest.forest().nodes.size(), a->forest().nodes.size() + b->forest().nodes.size());
  EXPECT_EQ(forest.origin(), a->origin());
  const OctreeIndex index(forest.forest());
  EXPECT_EQ(index.roots().size(), 3u);
  // The last node is b's last: same world positions, now as offsets from a's origin.
  const size_t last = forest.forest().nodes.size() - 1;
  EXPECT_EQ(forest.memberNode(last), (std::pair<size_t, size_t>{1, b->forest().nodes.size() - 1}));
  EXPECT_EQ(forest.forest().nodes[last].tree, 2u);
  const PointCloud moved = forest.decodeNode(last);
  const PointCloud original = b->decodeNode(b->forest().nodes.size() - 1);
  ASSERT_EQ(moved.size(), original.size());
  EXPECT_EQ(moved.origin, a->origin());
  for (size_t i = 0; i < moved.size(); ++i) {
    const glm::dvec3 before =
        original.origin +
        glm::dvec3(original.points[i].x, original.points[i].y, original.points[i].z);
    const glm::dvec3 after =
        moved.origin + glm::dvec3(moved.points[i].x, moved.points[i].y, moved.points[i].z);
    EXPECT_LT(glm::length(after - before), 1e-4) << i;
  }
  EXPECT_THROW(ForestNodeSource({}), InputError);
}

TEST(ForestNodeSource, TwoCopcFilesStreamAsOneForest) {
  const std::filesystem::path path = test::testDataDir() / "laz-corpus" / "lone-star.copc.laz";
  if (test::testDataDir().empty() || !std::filesystem::exists(path)) {
    GTEST_SKIP() << "lone-star.copc.laz not found in the shared data";
  }
  const auto file = std::make_shared<const CopcFile>(path);
  const auto one = std::make_shared<const CopcNodeSource>(file);
  const auto twice = std::make_shared<const ForestNodeSource>(
      std::vector<std::shared_ptr<const NodeSource>>{one, one});
  auto renderer = createRenderer("cpu", {.storage = PointStorage::Compact});
  StreamedCloud cloud(twice, *renderer, {.gpuMemoryBytes = 64ull << 20, .refineSpacingPx = 0.0});
  converge(cloud, frameBounds(cloud.bounds(), 16.0f / 9.0f), 320, 180);
  EXPECT_EQ(cloud.stats().pointsDrawn, 2 * file->pointCount()) << "both trees whole";
}

}  // namespace
}  // namespace pcv
