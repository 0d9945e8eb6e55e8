// The compact layout: Morton order, batches, quantization, and the image it gives.
#include <cmath>

#include "cpu/point_layout.hpp"
#include "pcv/demo/cylinder_producer.hpp"
#include "shared/morton.hpp"
#include "test_support.hpp"

namespace pcv {
namespace {

std::vector<Point> cylinderPoints(uint64_t count, uint64_t seed) {
  std::vector<Point> points(count);
  generateCylinderPoints(makeCylinderSet(seed), points);
  return points;
}

void sortPointsByMorton(std::vector<Point>& points) {
  const std::vector<uint32_t> order = mortonOrder(points);
  std::vector<Point> sorted(points.size());
  for (size_t i = 0; i < points.size(); ++i) sorted[i] = points[order[i]];
  points.swap(sorted);
}

/// The compact layout of points already in Morton order, in a pool of their own.
HostPointPool buildCompactPoints(const std::vector<Point>& sorted) {
  HostPointPool pool;
  pool.positions.resize(sorted.size());
  pool.colors.resize(sorted.size());
  pool.batches.resize((sorted.size() + kBatchSize - 1) / kBatchSize);
  pcv::buildCompactPoints(sorted, pool, 0, 0);
  return pool;
}

TEST(Morton, InterleavesBitsXFirst) {
  EXPECT_EQ(spreadBits3(0b1011), 0b1000001001ull);
  const float min[3] = {0, 0, 0}, max[3] = {1, 1, 1};
  const MortonGrid grid = makeMortonGrid(min, max);
  EXPECT_EQ(mortonCode(grid, 0, 0, 0), 0u);
  EXPECT_EQ(mortonCode(grid, 1, 1, 1), (uint64_t(1) << 63) - 1);
  EXPECT_LT(mortonCode(grid, 0.9f, 0, 0), mortonCode(grid, 0, 0, 0.6f));  // z is the top bit
  EXPECT_EQ(mortonCode(grid, NAN, -5, 7), mortonCode(grid, 0, 0, 1));     // clamped
}

TEST(Morton, SortKeepsEveryPointOnce) {
  std::vector<Point> points = cylinderPoints(100'000, 4);
  std::vector<Point> sorted = points;
  sortPointsByMorton(sorted);
  auto key = [](const Point& p) { return std::tuple(p.x, p.y, p.z, p.rgba); };
  std::sort(points.begin(), points.end(), [&](auto& a, auto& b) { return key(a) < key(b); });
  std::vector<Point> resorted = sorted;
  std::sort(resorted.begin(), resorted.end(), [&](auto& a, auto& b) { return key(a) < key(b); });
  EXPECT_EQ(0, std::memcmp(points.data(), resorted.data(), points.size() * sizeof(Point)));
}

TEST(Morton, HostCodesAreTheSharedCodesInEveryCell) {
  // Every one of the 2^21 cells on each axis, at its centre and at its edges, and values off
  // the grid on both sides and NaN (clamped): the host's table-driven code is mortonCode's.
  const float min[3] = {-3.0f, 10.0f, 0.0f}, max[3] = {5.0f, 10.5f, 1.0f};
  const MortonGrid grid = makeMortonGrid(min, max);
  for (int axis = 0; axis < 3; ++axis) {
    const float extent = max[axis] - min[axis];
    std::vector<float> values = {min[axis] - extent, max[axis] + extent, NAN, min[axis], max[axis]};
    for (uint32_t cell = 0; cell < (1u << 21); ++cell) {
      values.push_back(min[axis] + (float(cell) + 0.5f) / grid.cellsPerUnit[axis]);
    }
    for (const float v : values) {
      float p[3] = {min[0], min[1], max[2]};
      p[axis] = v;
      const Point point{p[0], p[1], p[2], 0u};
      ASSERT_EQ(hostMortonCode(grid, point), mortonCode(grid, p[0], p[1], p[2]))
          << "axis " << axis << " value " << v;
    }
  }
}

TEST(Morton, OrderIsByCodeThenByIndex) {
  // Small and large clouds (the codes are computed on all cores); few distinct positions, so
  // many codes are equal and their order must stay the points' order.
  for (const size_t count : {size_t(1000), size_t(5000), size_t(300'000)}) {
    std::vector<Point> points = cylinderPoints(count, 11);
    for (size_t i = 0; i < count; i += 3) points[i] = points[i / 7];
    const std::vector<uint32_t> order = mortonOrder(points);
    float min[3] = {INFINITY, INFINITY, INFINITY}, max[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (const Point& p : points) {
      const float v[3] = {p.x, p.y, p.z};
      for (int axis = 0; axis < 3; ++axis) {
        min[axis] = std::min(min[axis], v[axis]);
        max[axis] = std::max(max[axis], v[axis]);
      }
    }
    const MortonGrid grid = makeMortonGrid(min, max);
    std::vector<std::pair<uint64_t, uint32_t>> reference(count);
    for (size_t i = 0; i < count; ++i) {
      reference[i] = {mortonCode(grid, points[i].x, points[i].y, points[i].z), uint32_t(i)};
    }
    std::sort(reference.begin(), reference.end());
    ASSERT_EQ(order.size(), count);
    for (size_t i = 0; i < count; ++i)
      ASSERT_EQ(order[i], reference[i].second) << count << " " << i;
  }
}

/// Median over batches of the largest quantization step of each.
double medianStep(const HostPointPool& compact) {
  std::vector<double> steps;
  for (const Batch& batch : compact.batches) {
    steps.push_back(std::max({batch.step[0], batch.step[1], batch.step[2]}));
  }
  std::sort(steps.begin(), steps.end());
  return steps[steps.size() / 2];
}

TEST(CompactLayout, SliceLaidOutEqualsTheLayoutOfItsSortedCopy) {
  // layOutSlice gathers each batch's points in Morton order where it lays them out; the batches,
  // positions and colours are those of a sorted copy's layout, the kept points that copy, and the
  // order written the Morton order, at slots past the pool's start.
  std::vector<Point> points = cylinderPoints(25'000, 6);  // three batches, the last partial
  points[7].x = NAN;
  const std::vector<uint32_t> order = mortonOrder(points);
  std::vector<Point> sorted(points.size());
  for (size_t i = 0; i < points.size(); ++i) sorted[i] = points[order[i]];
  const uint64_t pointFirst = 100, batchFirst = 2, count = points.size();
  const uint64_t batches = (count + kBatchSize - 1) / kBatchSize;
  auto slicePool = [&](bool keepPoints) {
    HostPointPool pool;
    pool.positions.resize(pointFirst + count);
    pool.colors.resize(pointFirst + count);
    pool.batches.resize(batchFirst + batches);
    if (keepPoints) pool.points.resize(pointFirst + count);
    return pool;
  };
  HostPointPool expected = slicePool(false);
  pcv::buildCompactPoints(sorted, expected, pointFirst, batchFirst);
  for (const bool keepPoints : {false, true}) {
    for (const bool withOrder : {false, true}) {
      HostPointPool pool = slicePool(keepPoints);
      std::vector<uint32_t> sliceOrder(count, 0xdeadbeefu);
      layOutSlice(points, pool, pointFirst, batchFirst, true, keepPoints,
                  withOrder ? sliceOrder.data() : nullptr);
      EXPECT_EQ(0, std::memcmp(pool.batches.data() + batchFirst,
                               expected.batches.data() + batchFirst, batches * sizeof(Batch)));
      EXPECT_TRUE(std::equal(pool.positions.begin() + pointFirst, pool.positions.end(),
                             expected.positions.begin() + pointFirst));
      EXPECT_TRUE(std::equal(pool.colors.begin() + pointFirst, pool.colors.end(),
                             expected.colors.begin() + pointFirst));
      if (withOrder) {
        EXPECT_EQ(sliceOrder, order);
      }
      if (keepPoints) {
        EXPECT_EQ(
            0, std::memcmp(pool.points.data() + pointFirst, sorted.data(), count * sizeof(Point)));
      }
    }
  }
}

TEST(CompactLayout, QuantizationErrorIsAtMostHalfAStep) {
  std::vector<Point> points = cylinderPoints(200'000, 8);
  sortPointsByMorton(points);
  const HostPointPool compact = buildCompactPoints(points);
  ASSERT_EQ(compact.batches.size(), (points.size() + kBatchSize - 1) / kBatchSize);
  for (const Batch& batch : compact.batches) {
    for (uint32_t i = batch.first; i < batch.first + batch.count; ++i) {
      const uint32_t word = compact.positions[i];
      ASSERT_EQ(word & kInvalidQuantized, 0u);
      const float original[3] = {points[i].x, points[i].y, points[i].z};
      for (int axis = 0; axis < 3; ++axis) {
        const uint32_t q = (word >> (10 * axis)) & 1023u;
        const double decoded = batch.min[axis] + double(q) * batch.step[axis];
        EXPECT_LE(std::abs(decoded - original[axis]), 0.5001 * batch.step[axis] + 1e-7) << i;
      }
      EXPECT_EQ(compact.colors[i], points[i].rgba);
    }
  }
}

TEST(CompactLayout, DenserCloudsGetFinerSteps) {
  // Morton batches hold a fixed number of points, so on a surface their extent, and the step,
  // shrink like 1/sqrt(density): ten times the points, about a third of the step.
  std::vector<Point> sparse = cylinderPoints(200'000, 8);
  std::vector<Point> dense = cylinderPoints(2'000'000, 8);
  sortPointsByMorton(sparse);
  sortPointsByMorton(dense);
  const double sparseStep = medianStep(buildCompactPoints(sparse));
  const double denseStep = medianStep(buildCompactPoints(dense));
  std::printf("median quantization step: %.3g units at 200 k points, %.3g at 2 M\n", sparseStep,
              denseStep);
  EXPECT_LT(denseStep, sparseStep / 2);
}

TEST(CompactLayout, NonFinitePointsAreNeverDrawn) {
  std::vector<Point> points = {{-2.0f, 0.0f, 0.0f, packRgba(1, 2, 3)},
                               {NAN, 0.0f, 0.0f, packRgba(9, 9, 9)},
                               {-2.0f, INFINITY, 0.0f, packRgba(9, 9, 9)},
                               {-2.0f, 0.1f, 0.1f, packRgba(4, 5, 6)}};
  auto renderer = createRenderer("cpu");
  renderer->addSet(points);
  const Image image = test::renderToImage(*renderer, test::makeView(Camera{}, 64, 64), {});
  EXPECT_EQ(test::countLitPixels(image, kOpaqueBlack), 2u);
}

TEST(CompactLayout, ImageDiffersFromFullPrecisionOnlyByQuantization) {
  auto renderer = createRenderer("cpu");
  renderer->addSet(CylinderProducer(makeCylinderSet(5), 1'000'000));
  RenderSettings compact, packed;
  compact.method = RasterMethod::Compact;
  packed.method = RasterMethod::Packed;
  struct View {
    glm::dvec3 eye;
    float yaw, pitch;
  } views[] = {{{-3, 0, 0}, 0, 0}, {{-0.8, -0.6, 0.9}, 35, -40}, {{-8, 3, 2}, -20, -10}};
  for (const View& v : views) {
    const ViewTransform view = test::makeView(Camera::lookingFrom(v.eye, v.yaw, v.pitch), 640, 360);
    const Image a = test::renderToImage(*renderer, view, compact);
    const Image b = test::renderToImage(*renderer, view, packed);
    const uint64_t litA = test::countLitPixels(a, kOpaqueBlack);
    const uint64_t litB = test::countLitPixels(b, kOpaqueBlack);
    const uint64_t different = test::countDifferentPixels(a, b);
    // A point's colour is its cylinder's base colour +-0.1 (25 levels); a difference larger than
    // the jitter's span means another surface won the pixel, not another point of the same one.
    uint64_t otherSurface = 0;
    for (size_t i = 0; i < a.pixels.size(); ++i) {
      const uint32_t p = a.pixels[i], q = b.pixels[i];
      otherSurface += std::abs(int(redOf(p)) - int(redOf(q))) > 52 ||
                      std::abs(int(greenOf(p)) - int(greenOf(q))) > 52 ||
                      std::abs(int(blueOf(p)) - int(blueOf(q))) > 52;
    }
    std::printf(
        "compact vs packed: lit %llu vs %llu, %llu pixels differ, %llu show another "
        "surface\n",
        (unsigned long long)litA, (unsigned long long)litB, (unsigned long long)different,
        (unsigned long long)otherSurface);
    ASSERT_GT(litB, 1000u);
    // Coverage within 1%: culling keeps every visible batch, quantization moves points by at
    // most half a step (tested above), which shifts few of them across a pixel edge.
    EXPECT_LT(std::abs(double(litA) - double(litB)), 0.01 * litB);
    // Where many points share a pixel, a shift of a fraction of a pixel picks another point of
    // the same surface (another jitter of its colour): common, invisible. Another surface wins
    // along silhouettes, where surfaces cross, and close up where the front surface is sparser
    // than the pixels and the points decide which gaps show what lies behind: bounded at 5%.
    EXPECT_LT(different, litB / 2);
    EXPECT_LT(otherSurface, litB / 20);
  }
}

}  // namespace
}  // namespace pcv

namespace pcv {
namespace {

TEST(CompactLayout, PointsOfBatchesClassifiedInsidePassEveryTest) {
  std::vector<Point> points = cylinderPoints(1'000'000, 12);
  sortPointsByMorton(points);
  const HostPointPool compact = buildCompactPoints(points);
  const Camera cameras[] = {Camera::lookingFrom({-3, 0, 0}, 0, 0),
                            Camera::lookingFrom({-0.8, -0.6, 0.9}, 35, -40),
                            Camera::lookingFrom({0.1, 0, 0.05}, 120, 10)};
  uint64_t insideBatches = 0, partialBatches = 0, outsideBatches = 0;
  for (const Camera& camera : cameras) {
    const ViewTransform view = test::makeView(camera, 800, 450);
    for (const Batch& batch : compact.batches) {
      const BatchProjection projection = makeBatchProjection(view, batch);
      const BatchVisibility visibility = classifyBatch(projection);
      uint32_t drawn = 0;
      for (uint32_t i = batch.first; i < batch.first + batch.count; ++i) {
        PixelHit tested{}, untested{};
        const bool passes = projectQuantized<true>(projection, compact.positions[i], tested);
        drawn += passes;
        if (visibility != BatchVisibility::kInside) continue;
        ASSERT_TRUE(passes) << "point " << i << " of a batch classified inside";
        ASSERT_TRUE(projectQuantized<false>(projection, compact.positions[i], untested));
        ASSERT_EQ(tested.x, untested.x);
        ASSERT_EQ(tested.y, untested.y);
        ASSERT_EQ(tested.viewDepth, untested.viewDepth);
      }
      if (visibility == BatchVisibility::kOutside) {
        EXPECT_EQ(drawn, 0u);
      }
      insideBatches += visibility == BatchVisibility::kInside;
      partialBatches += visibility == BatchVisibility::kPartial;
      outsideBatches += visibility == BatchVisibility::kOutside;
    }
  }
  std::printf("batches inside %llu, partial %llu, outside %llu\n",
              (unsigned long long)insideBatches, (unsigned long long)partialBatches,
              (unsigned long long)outsideBatches);
  EXPECT_GT(insideBatches, 0u);
  EXPECT_GT(outsideBatches, 0u);
}

}  // namespace
}  // namespace pcv
