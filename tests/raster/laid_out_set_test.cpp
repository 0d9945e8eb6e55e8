// Sets laid out ahead of time (on another thread, as a stream's loader threads do) and then
// copied into the renderer draw, pick and filter exactly as the same points given to addSet,
// whatever the storage and however many layout slices they span; a set laid out for another
// layout is refused. On the CPU backend; the same on the CUDA backend where there is a GPU.
#include <future>
#include <random>

#include "pcv/core/error.hpp"
#include "pcv/core/point_filter.hpp"
#include "pcv/raster/laid_out_set.hpp"
#include "pcv/raster/view_setup.hpp"
#include "test_support.hpp"

namespace pcv {
namespace {

constexpr uint64_t kPoints = 50'000;

/// Random points in a box with classes by place, as a stream's node might hold.
PointCloud randomCloud(uint32_t seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  PointCloud cloud;
  cloud.points.resize(kPoints);
  cloud.attributes = {{"classification", {}}, {"return_number", {}},
                      {"number_of_returns", {}}, {"intensity", {}}};
  for (auto& attribute : cloud.attributes) attribute.values.resize(kPoints);
  for (uint64_t i = 0; i < kPoints; ++i) {
    Point& p = cloud.points[i];
    p = {2.0f * unit(random), 2.0f * unit(random), 0.5f * unit(random),
         packRgba(random() % 256, random() % 256, random() % 256)};
    cloud.attributes[0].values[i] = p.x < 0.0f ? 2.0f : 6.0f;
    cloud.attributes[1].values[i] = float(1 + random() % 2);
    cloud.attributes[2].values[i] = 2.0f;
    cloud.attributes[3].values[i] = float(random() % 1000);
  }
  return cloud;
}

/// Two renderers alike: one given the points, one given them laid out on another thread.
void expectSameAsAddSet(const std::string& backend, PointStorage storage) {
  // Slices of two batches: the set spans several, each with its own Morton order.
  const RendererOptions options{.storage = storage, .layoutSliceBatches = 2};
  auto given = createRenderer(backend, options);
  auto ahead = createRenderer(backend, options);
  const PointCloud cloud = randomCloud(7);
  const bool filters = storage != PointStorage::Unsorted;
  const FilterData filter = filterDataOf(cloud.attributes, "intensity");
  const PointSetId a = given->addSet(cloud.points, {.keepSourceOrder = filters});
  if (filters) given->setFilterData(a, filter);
  const LayoutSpec spec = ahead->layoutSpec();
  LaidOutSet laid = std::async(std::launch::async, [&] {
                      return layOutSet(cloud.points, spec, filters, filters ? &filter : nullptr);
                    }).get();
  EXPECT_EQ(laid.pointCount(), kPoints);
  ReservedPool pool = ahead->reservePool(8 << 20);
  const std::optional<PointSetId> b = pool.tryAddSet(laid);
  ASSERT_TRUE(b);
  EXPECT_EQ(ahead->addedPoints().laidOutAhead, kPoints);
  EXPECT_EQ(ahead->addedPoints().laidOutHere, 0u) << "nothing laid out on the adding thread";
  EXPECT_EQ(given->addedPoints().laidOutHere, kPoints);

  const Camera camera = Camera::lookingFrom({0.0, -4.0, 3.0}, 90.0f, -35.0f);
  const ViewTransform view = makeViewTransform(camera, 240, 160);
  std::vector<RenderSettings> frames(1);
  if (filters) {
    frames.resize(3);
    frames[1].filter.classes = parseClassList("2", "--classes");
    frames[2].filter.ranges = {{"intensity", 100.0, 400.0}};
  }
  for (const RenderSettings& settings : frames) {
    const Image expected = test::renderToImage(*given, view, settings);
    const Image got = test::renderToImage(*ahead, view, settings);
    EXPECT_EQ(test::countDifferentPixels(expected, got), 0u);
  }
  if (storage == PointStorage::Unsorted) return;  // no depth pass to pick from
  for (const auto& [x, y] : {std::pair{120, 80}, {60, 50}, {200, 120}}) {
    const auto p = given->pick(view, {}, x, y), q = ahead->pick(view, {}, x, y);
    ASSERT_EQ(p.has_value(), q.has_value());
    if (!p) continue;
    EXPECT_EQ(p->sourceIndex, q->sourceIndex) << "the set keeps its source order";
    EXPECT_EQ(p->location.index, q->location.index);
  }
}

TEST(LaidOutSet, DrawsPicksAndFiltersAsTheSetGivenWhole) {
  for (PointStorage storage :
       {PointStorage::Compact, PointStorage::CompactAndPoints, PointStorage::Unsorted}) {
    SCOPED_TRACE(int(storage));
    expectSameAsAddSet("cpu", storage);
  }
}

TEST(LaidOutSet, DrawsPicksAndFiltersAsTheSetGivenWholeOnCuda) {
  PCV_REQUIRE_CUDA();
  for (PointStorage storage : {PointStorage::Compact, PointStorage::CompactAndPoints}) {
    SCOPED_TRACE(int(storage));
    expectSameAsAddSet("cuda", storage);
  }
}

TEST(LaidOutSet, ASetLaidOutForAnotherLayoutIsRefused) {
  auto renderer = createRenderer("cpu", {.storage = PointStorage::Compact});
  const PointCloud cloud = randomCloud(3);
  LayoutSpec other = renderer->layoutSpec();
  other.slicePoints /= 2;
  const LaidOutSet laid = layOutSet(cloud.points, other);
  EXPECT_THROW(renderer->addSet(laid), InputError);
  ReservedPool pool = renderer->reservePool(8 << 20);
  EXPECT_THROW(pool.tryAddSet(laid), InputError);
  EXPECT_TRUE(renderer->sets().empty());
  EXPECT_EQ(pool.usedPointSlots(), 0u) << "its slots went back";
}

}  // namespace
}  // namespace pcv
