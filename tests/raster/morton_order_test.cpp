// The Morton order of the host layout, sorted on all cores, against a std::stable_sort by code:
// the same permutation on random clouds with equal codes and points that are not finite, for any
// size and any number of threads (the parts of the parallel sort need not be equal). The CPU and
// Vulkan layouts and the GPU's radix sort must agree bit for bit, so nothing less will do.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <numeric>
#include <optional>
#include <random>
#include <string>

#include "cpu/point_layout.hpp"
#include "cpu/radix_order.hpp"
#include "shared/morton.hpp"
#include "test_support.hpp"

namespace pcv {
namespace {

/// Sets PCV_THREADS while it lives (parallelFor reads it on every call), then restores it.
class ThreadCount {
 public:
  explicit ThreadCount(unsigned threads) {
    if (const char* old = std::getenv("PCV_THREADS")) old_ = old;
    ::setenv("PCV_THREADS", std::to_string(threads).c_str(), 1);
  }
  ~ThreadCount() {
    if (old_) {
      ::setenv("PCV_THREADS", old_->c_str(), 1);
    } else {
      ::unsetenv("PCV_THREADS");
    }
  }

 private:
  std::optional<std::string> old_;
};

/// The permutation a std::stable_sort of the indices by key gives.
std::vector<uint32_t> stableSortedOrder(const std::vector<uint64_t>& keys) {
  std::vector<uint32_t> order(keys.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return keys[a] < keys[b]; });
  return order;
}

/// Morton order's reference: codes in the finite points' bounds, stably sorted.
std::vector<uint32_t> referenceMortonOrder(const std::vector<Point>& points) {
  float min[3] = {INFINITY, INFINITY, INFINITY}, max[3] = {-INFINITY, -INFINITY, -INFINITY};
  for (const Point& p : points) {
    if (!(std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z))) continue;
    const float v[3] = {p.x, p.y, p.z};
    for (int axis = 0; axis < 3; ++axis) {
      min[axis] = std::min(min[axis], v[axis]);
      max[axis] = std::max(max[axis], v[axis]);
    }
  }
  const MortonGrid grid = makeMortonGrid(min, max);
  std::vector<uint64_t> codes(points.size());
  for (size_t i = 0; i < points.size(); ++i)
    codes[i] = mortonCode(grid, points[i].x, points[i].y, points[i].z);
  return stableSortedOrder(codes);
}

/// How the random points lie.
enum class Shape {
  Box,      ///< all over a box
  FlatZ,    ///< at one height: a third of the code's bits are constant
  Clumped,  ///< in a tiny box but for a few far away: most codes share their high bits
};

/// Random points, a share of them repeated (equal codes, in any order of the indices) and some
/// not finite.
std::vector<Point> randomCloud(size_t count, uint32_t seed, Shape shape) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<float> unit(-100.0f, 100.0f);
  std::vector<Point> points(count);
  for (size_t i = 0; i < count; ++i) {
    Point& p = points[i];
    p = {unit(random), unit(random), unit(random), uint32_t(i)};
    if (shape == Shape::FlatZ) p.z = 3.0f;
    if (shape == Shape::Clumped && random() % 1000 != 0) {
      p = {1.0f + 1e-3f * p.x, 2.0f + 1e-3f * p.y, 3.0f + 1e-3f * p.z, p.rgba};
    }
    if (i > 0 && random() % 4 == 0) p = points[random() % i];  // an equal code, earlier index
    const uint32_t spoilt = random() % 64;                     // a few points not finite
    if (spoilt == 0) p.x = NAN;
    if (spoilt == 1) p.y = INFINITY;
    if (spoilt == 2) p.z = -INFINITY;
  }
  return points;
}

// 0 and 1 point; sizes that split into one part and into several unequal ones (a part has at
// least 2^16 points); thread counts that do and do not divide them. Clumped clouds give buckets
// of more than a thread's share, which all threads sort again.
constexpr size_t kSizes[] = {0, 1, 2, 3, 1000, 65'537, 131'073, 500'009};
constexpr unsigned kThreadCounts[] = {1, 2, 3, 7, 16};

TEST(MortonOrder, EqualsStableSortByCode) {
  for (const unsigned threads : kThreadCounts) {
    const ThreadCount threadCount(threads);
    for (const size_t count : kSizes) {
      for (const Shape shape : {Shape::Box, Shape::FlatZ, Shape::Clumped}) {
        const std::vector<Point> points = randomCloud(count, uint32_t(count + threads), shape);
        ASSERT_EQ(mortonOrder(points), referenceMortonOrder(points))
            << count << " points, " << threads << " threads, shape " << int(shape);
      }
    }
  }
}

TEST(MortonOrder, CloudsWithoutFinitePointsOrAllAlikeKeepTheirOrder) {
  const ThreadCount threadCount(3);
  for (const size_t count : {size_t(5), size_t(300'000)}) {
    std::vector<uint32_t> identity(count);
    std::iota(identity.begin(), identity.end(), 0u);
    const std::vector<Point> notFinite(count, Point{NAN, INFINITY, -INFINITY, 0});
    const std::vector<Point> alike(count, Point{1, 2, 3, 0});
    EXPECT_EQ(mortonOrder(notFinite), identity);
    EXPECT_EQ(mortonOrder(alike), identity);
  }
}

TEST(MortonOrder, WritesIntoTheCallersOrder) {
  const std::vector<Point> points = randomCloud(200'000, 5, Shape::Box);
  std::vector<uint32_t> order(points.size(), 0xdeadbeefu);  // poisoned: every slot is written
  mortonOrder(points, order);
  EXPECT_EQ(order, referenceMortonOrder(points));
}

// The radix sort's digits: keys that differ in bits far apart (passes over constant bits are
// skipped, which changes which buffer the last pass writes), in the 64th bit, or in one bit.
TEST(StableRadixOrder, EqualsStableSortForKeysOfAnyBits) {
  const ThreadCount threadCount(3);
  std::mt19937_64 random(9);
  const std::vector<uint64_t> masks = {
      1,     uint64_t(1) << 63, (uint64_t(1) << 63) | 1, 0xffffull << 20, 0x7ff,
      0xfff, ~uint64_t(0),      0x8000'0000'0000'0800ull};
  for (const uint64_t mask : masks) {
    for (const size_t count : {size_t(1), size_t(777), size_t(200'003)}) {
      std::vector<uint64_t> keys(count);
      for (uint64_t& key : keys) key = (random() & mask) | 0x0010'0000'0000'0000ull;
      const std::vector<uint32_t> expected = stableSortedOrder(keys);
      // With a buffer of its own for the indices, and with one lent by the caller.
      for (const bool lent : {false, true}) {
        std::vector<uint64_t> sortedKeys = keys;
        std::vector<uint32_t> order(count, 0xdeadbeefu), scratch(lent ? count : 0, 0xdeadbeefu);
        stableRadixOrder(sortedKeys, order, scratch);
        ASSERT_EQ(order, expected)
            << std::hex << mask << std::dec << ", " << count << " keys, lent " << lent;
      }
    }
  }
}

// Most keys equal: a bucket of more than a thread's share whose keys agree on every bit.
TEST(StableRadixOrder, EqualsStableSortWhenMostKeysAreEqual) {
  const ThreadCount threadCount(3);
  std::mt19937_64 random(10);
  std::vector<uint64_t> keys(600'001);
  for (uint64_t& key : keys) key = random() % 10 == 0 ? random() : 0x5555'5555'5555ull;
  const std::vector<uint32_t> expected = stableSortedOrder(keys);
  std::vector<uint32_t> order(keys.size(), 0xdeadbeefu);
  stableRadixOrder(keys, order);
  EXPECT_EQ(order, expected);
}

}  // namespace
}  // namespace pcv
