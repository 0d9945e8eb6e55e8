// A reserved pool in the renderer (the memory a streamed source takes): its sets and the sets
// added beside it are drawn and picked in one frame, it refuses what exceeds it while the rest
// grows, and dropping the handle removes its sets and frees its slots. On the CPU backend; the
// same frame on the CUDA backend where there is a GPU.
#include "pcv/raster/view_setup.hpp"
#include "test_support.hpp"

namespace pcv {
namespace {

/// A row of `count` points across the view at height y, in one colour.
std::vector<Point> rowOfPoints(float y, uint32_t rgba, int count) {
  std::vector<Point> points;
  for (int i = 0; i < count; ++i) points.push_back({-1.0f, y, -0.5f + 0.01f * float(i), rgba});
  return points;
}

long countColor(const Image& image, uint32_t rgba) {
  return long(std::count(image.pixels.begin(), image.pixels.end(), rgba));
}

const uint32_t kRed = packRgba(255, 0, 0), kGreen = packRgba(0, 255, 0);

TEST(ReservedPool, ItsSetsAndTheSetsBesideItDrawAndPickInOneFrame) {
  auto renderer = createRenderer("cpu");
  const PointSetId inCore = renderer->addSet(rowOfPoints(-0.2f, kRed, 80));
  ReservedPool pool = renderer->reservePool(1 << 20);
  const std::optional<PointSetId> streamed =
      pool.tryAddSet(HostPoints(rowOfPoints(0.2f, kGreen, 80)));
  ASSERT_TRUE(streamed);
  const PointSetId later = renderer->addSet(rowOfPoints(0.0f, kRed, 80));  // after the pool
  EXPECT_EQ(renderer->sets(), (std::vector<PointSetId>{inCore, *streamed, later}));
  EXPECT_EQ(renderer->pointCount(), 240u);

  const ViewTransform view = makeViewTransform(Camera{}, 200, 200);
  const Image all = test::renderToImage(*renderer, view, {});
  EXPECT_GT(countColor(all, kRed), 100);
  EXPECT_GT(countColor(all, kGreen), 50);
  Image listed(200, 200, test::kPoisonPixel);
  const std::vector<PointSetId> sets = {inCore, *streamed, later};
  renderer->render(sets, view, {}, {listed.pixels.data(), 200, 200, MemorySpace::Host});
  EXPECT_EQ(test::countDifferentPixels(all, listed), 0u);

  // Each row's pixels name their own set.
  for (const auto& [y, set] : {std::pair{-0.2f, inCore}, {0.2f, *streamed}, {0.0f, later}}) {
    PixelHit hit{};
    ASSERT_TRUE(projectPoint(view, -1.0f, y, 0.0f, hit));
    const std::optional<PickedPoint> picked = renderer->pick(view, {}, hit.x, hit.y);
    ASSERT_TRUE(picked) << y;
    EXPECT_EQ(picked->location.set, set) << y;
    EXPECT_NEAR(picked->position[1], y, 1e-3f);
  }
}

TEST(ReservedPool, RefusesWhatExceedsItWhileTheRestGrows) {
  auto renderer = createRenderer("cpu", {.storage = PointStorage::Compact});
  ReservedPool pool = renderer->reservePool(100'000 * 8);
  const uint64_t capacity = pool.pointCapacity();
  ASSERT_GT(capacity, 80'000u);
  ASSERT_LT(capacity, 100'000u);
  const std::vector<Point> tooMany = rowOfPoints(0.0f, kGreen, int(capacity) + 1);
  EXPECT_FALSE(pool.tryAddSet(HostPoints(tooMany)));
  EXPECT_TRUE(renderer->sets().empty()) << "a refused set leaves nothing behind";
  // Sets of a quarter fill it: three fit, and the fourth does not once alignment is paid.
  const std::vector<Point> quarter = rowOfPoints(0.0f, kGreen, int(capacity / 4) + 16);
  std::vector<PointSetId> inPool;
  while (const auto set = pool.tryAddSet(HostPoints(quarter))) inPool.push_back(*set);
  EXPECT_EQ(inPool.size(), 3u);
  EXPECT_LE(pool.usedPointSlots(), capacity);
  // The rest of the renderer still takes sets of any size, beside the full pool.
  const uint64_t before = renderer->residentBytes();
  const PointSetId big = renderer->addSet(rowOfPoints(0.1f, kRed, int(capacity) * 2));
  EXPECT_GT(renderer->residentBytes(), before);
  EXPECT_EQ(renderer->pointCount(big), capacity * 2);
  EXPECT_FALSE(pool.tryAddSet(HostPoints(quarter))) << "the shared growth is not the pool's";
  // Room made in the pool is room again.
  renderer->removeSet(inPool.back());
  EXPECT_TRUE(pool.tryAddSet(HostPoints(quarter)));
  EXPECT_EQ(renderer->reservedPointSlots(), capacity);
}

TEST(ReservedPool, DroppingTheHandleRemovesItsSetsAndFreesItsMemory) {
  auto renderer = createRenderer("cpu", {.storage = PointStorage::Compact});
  {
    ReservedPool pool = renderer->reservePool(50'000 * 8);
    ASSERT_TRUE(pool.tryAddSet(HostPoints(rowOfPoints(0.0f, kGreen, 1000))));
    EXPECT_GT(renderer->residentBytes(), 0u);
  }
  EXPECT_TRUE(renderer->sets().empty());
  EXPECT_EQ(renderer->reservedPointSlots(), 0u);
  EXPECT_EQ(renderer->residentBytes(), 0u) << "nothing else held: the memory is freed";

  // Beside an in-core set, the pool's slots go back to the rest: a set of its size fits there
  // without the memory growing.
  const PointSetId inCore = renderer->addSet(rowOfPoints(-0.2f, kRed, 100));
  ReservedPool pool = renderer->reservePool(50'000 * 8);
  const uint64_t capacity = pool.pointCapacity();
  ASSERT_TRUE(pool.tryAddSet(HostPoints(rowOfPoints(0.0f, kGreen, 1000))));
  const uint64_t held = renderer->residentBytes();
  pool.reset();
  EXPECT_FALSE(pool);
  EXPECT_EQ(renderer->sets(), std::vector<PointSetId>{inCore});
  const PointSetId refill = renderer->addSet(rowOfPoints(0.0f, kRed, int(capacity) - 64));
  EXPECT_EQ(renderer->residentBytes(), held);
  const Image image = test::renderToImage(*renderer, makeViewTransform(Camera{}, 200, 200), {});
  EXPECT_EQ(countColor(image, kGreen), 0) << "the pool's set is gone";
  EXPECT_GT(renderer->pointCount(refill), 0u);
}

TEST(ReservedPool, MovesAndClearKeepTheReservation) {
  auto renderer = createRenderer("cpu", {.storage = PointStorage::Compact});
  ReservedPool first = renderer->reservePool(20'000 * 8);
  ReservedPool moved = std::move(first);
  EXPECT_FALSE(first);  // NOLINT(bugprone-use-after-move): a moved-from handle holds nothing
  EXPECT_FALSE(first.tryAddSet(HostPoints(rowOfPoints(0.0f, kGreen, 10))));
  ASSERT_TRUE(moved.tryAddSet(HostPoints(rowOfPoints(0.0f, kGreen, 10))));
  renderer->addSet(rowOfPoints(0.1f, kRed, 10));
  renderer->clear();
  EXPECT_TRUE(renderer->sets().empty());
  EXPECT_EQ(moved.usedPointSlots(), 0u);
  EXPECT_GT(renderer->reservedPointSlots(), 0u) << "the handle still names its slots";
  EXPECT_TRUE(moved.tryAddSet(HostPoints(rowOfPoints(0.0f, kGreen, 10))));
  ReservedPool other = renderer->reservePool(20'000 * 8);
  EXPECT_EQ(renderer->reservedPointSlots(), moved.pointCapacity() + other.pointCapacity());
  moved = std::move(other);  // the first reservation is dropped
  EXPECT_EQ(renderer->reservedPointSlots(), moved.pointCapacity());
  EXPECT_TRUE(renderer->sets().empty());
}

TEST(ReservedPool, SetsInAndBesideThePoolDrawTheSameOnBothBackends) {
  std::string whyNot;
  if (!cudaAvailable(&whyNot)) GTEST_SKIP() << whyNot;
  std::vector<Image> images;
  for (const char* backend : {"cpu", "cuda"}) {
    auto renderer = createRenderer(backend, {.storage = PointStorage::Compact});
    renderer->addSet(rowOfPoints(-0.2f, kRed, 80));
    ReservedPool pool = renderer->reservePool(1 << 20);
    ASSERT_TRUE(pool.tryAddSet(HostPoints(rowOfPoints(0.2f, kGreen, 80))));
    const PointSetId gone = *pool.tryAddSet(HostPoints(rowOfPoints(0.1f, kGreen, 80)));
    renderer->addSet(rowOfPoints(0.0f, kRed, 80));
    renderer->removeSet(gone);
    images.push_back(test::renderToImage(*renderer, makeViewTransform(Camera{}, 200, 200), {}));
  }
  EXPECT_GT(countColor(images[0], kGreen), 50);
  EXPECT_EQ(test::countDifferentPixels(images[0], images[1]), 0u);
}

}  // namespace
}  // namespace pcv
