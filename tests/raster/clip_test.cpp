// Clipping: the batch classes against the per-point test (a batch kept or cut whole never holds a
// point its own test would treat otherwise), the world-to-offset conversion, and the renderer's
// images: a grid seen face on, one point per pixel, so lit pixels count the points drawn.
#include <algorithm>
#include <cmath>
#include <random>

#include "clip_frame.hpp"
#include "pcv/core/error.hpp"
#include "pcv/raster/view_setup.hpp"
#include "shared/clip_region.hpp"
#include "test_support.hpp"

namespace pcv {
namespace {

Batch unitBatch(float size = 1023.0f) {
  const float min[3] = {0.0f, 0.0f, 0.0f}, max[3] = {size, size, size};
  return makeBatch(min, max, 0, kBatchSize);
}

ClipFrame boxFrame(glm::dvec3 low, glm::dvec3 high, ClipKeep keep = ClipKeep::Inside) {
  const double origin[3] = {0.0, 0.0, 0.0};
  return makeClipFrame({.box = ClipBox{low, high}, .keep = keep}, origin);
}

uint32_t word(uint32_t x, uint32_t y, uint32_t z) {
  return x | y << 10 | z << 20;
}

const ClipPolygon kNoPolygon{};

/// Every test of the frame's clip for the batch, not only those its class left: a batch kept
/// or cut whole must agree with it.
BatchClip fullTest(BatchClip clip, const ClipFrame& frame) {
  clip.testsRegion = frame.hasRegion;
  clip.testsPolygon = frame.polygon.edgeCount != 0 ? 1u : 0u;
  return clip;
}

TEST(ClipRegion, BoxesInsideOutsideAndAcrossABatch) {
  const Batch batch = unitBatch();  // step 1: step counts are coordinates
  BatchClip clip{};
  EXPECT_EQ(classifyBatchClip(boxFrame(glm::dvec3(-1), glm::dvec3(2000)), batch, clip),
            BatchClipClass::kAll);
  EXPECT_EQ(classifyBatchClip(boxFrame(glm::dvec3(1100), glm::dvec3(2000)), batch, clip),
            BatchClipClass::kNone);
  EXPECT_EQ(classifyBatchClip(boxFrame(glm::dvec3(100), glm::dvec3(200)), batch, clip),
            BatchClipClass::kTested);
  EXPECT_TRUE(clipKeepsQuantized(clip, kNoPolygon, word(150, 100, 200)));
  EXPECT_FALSE(clipKeepsQuantized(clip, kNoPolygon, word(99, 150, 150)));
  EXPECT_FALSE(clipKeepsQuantized(clip, kNoPolygon, word(150, 150, 201)));
  // The box's faces are inclusive, and exactly at the batch's corner cube still keeps it whole.
  EXPECT_EQ(classifyBatchClip(boxFrame(glm::dvec3(0), glm::dvec3(1023)), batch, clip),
            BatchClipClass::kAll);
  // Cutting the box away inverts every class.
  const auto outside = [&](glm::dvec3 low, glm::dvec3 high) {
    return classifyBatchClip(boxFrame(low, high, ClipKeep::Outside), batch, clip);
  };
  EXPECT_EQ(outside(glm::dvec3(-1), glm::dvec3(2000)), BatchClipClass::kNone);
  EXPECT_EQ(outside(glm::dvec3(1100), glm::dvec3(2000)), BatchClipClass::kAll);
  EXPECT_EQ(outside(glm::dvec3(100), glm::dvec3(200)), BatchClipClass::kTested);
  EXPECT_FALSE(clipKeepsQuantized(clip, kNoPolygon, word(150, 100, 200)));
  EXPECT_TRUE(clipKeepsQuantized(clip, kNoPolygon, word(99, 150, 150)));
}

TEST(ClipRegion, FlatAxisIsKeptOrCutWhole) {
  const float min[3] = {0.0f, 0.0f, 5.0f}, max[3] = {10.0f, 10.0f, 5.0f};
  const Batch flat = makeBatch(min, max, 0, 100);
  BatchClip clip{};
  EXPECT_EQ(classifyBatchClip(boxFrame({-1, -1, 4}, {11, 11, 6}), flat, clip),
            BatchClipClass::kAll);
  EXPECT_EQ(classifyBatchClip(boxFrame({-1, -1, 6}, {11, 11, 7}), flat, clip),
            BatchClipClass::kNone);
}

TEST(ClipRegion, SlabAlongAnAxisFoldsIntoTheBox) {
  const double origin[3] = {100.0, 0.0, 0.0};
  ClipSettings settings{
      .box = ClipBox{{100, -5, -5}, {120, 5, 5}},
      .slab = ClipSlab{.normal = {0, 0, -2}, .centre = {0, 0, 1}, .thickness = 1}};
  const ClipFrame frame = makeClipFrame(settings, origin);
  EXPECT_EQ(frame.hasPlane, 0u);
  EXPECT_FLOAT_EQ(frame.boxMin[0], 0.0f);  // world 100 is offset 0 from the origin
  EXPECT_FLOAT_EQ(frame.boxMax[0], 20.0f);
  EXPECT_FLOAT_EQ(frame.boxMin[2], 0.5f);
  EXPECT_FLOAT_EQ(frame.boxMax[2], 1.5f);
  settings.slab->normal = {1, 1, 0};
  EXPECT_EQ(makeClipFrame(settings, origin).hasPlane, 1u);
}

/// Random batches and regions: kAll and kNone must agree with every point's own test.
TEST(ClipRegion, BatchClassesAgreeWithEveryPointsTest) {
  std::mt19937 random(7);
  std::uniform_real_distribution<float> coordinate(-50.0f, 50.0f);
  std::uniform_int_distribution<uint32_t> step(0, kQuantSteps);
  const double origin[3] = {0.0, 0.0, 0.0};
  int classes[3] = {0, 0, 0};
  for (int trial = 0; trial < 3000; ++trial) {
    float low[3], high[3];
    for (int axis = 0; axis < 3; ++axis) {
      const float a = coordinate(random), b = coordinate(random);
      low[axis] = std::min(a, b);
      high[axis] = trial % 7 == 0 && axis == 2 ? low[axis] : std::max(a, b);  // some flat
    }
    const Batch batch = makeBatch(low, high, 0, kBatchSize);
    ClipSettings settings;
    const glm::dvec3 a(coordinate(random), coordinate(random), coordinate(random));
    const glm::dvec3 b(coordinate(random), coordinate(random), coordinate(random));
    if (trial % 3 != 1) settings.box = ClipBox{glm::min(a, b), glm::max(a, b)};
    if (trial % 3 != 0) {
      settings.slab = ClipSlab{.normal = glm::dvec3(coordinate(random), coordinate(random), 1.0),
                               .centre = a,
                               .thickness = 1.0 + std::abs(coordinate(random))};
    }
    settings.keep = trial % 2 ? ClipKeep::Outside : ClipKeep::Inside;
    const ClipFrame frame = makeClipFrame(settings, origin);
    BatchClip clip{};
    const BatchClipClass c = classifyBatchClip(frame, batch, clip);
    ++classes[int(c)];
    if (c == BatchClipClass::kTested) continue;
    for (int point = 0; point < 2000; ++point) {
      // The cube's corners, where a wrong class shows first, then random points.
      const uint32_t w = point < 8 ? word(point & 1 ? kQuantSteps : 0, point & 2 ? kQuantSteps : 0,
                                          point & 4 ? kQuantSteps : 0)
                                   : word(step(random), step(random), step(random));
      ASSERT_EQ(clipKeepsQuantized(fullTest(clip, frame), kNoPolygon, w),
                c == BatchClipClass::kAll)
          << "trial " << trial << ", word " << w;
    }
  }
  // The random regions produce every class often.
  for (int count : classes) EXPECT_GT(count, 200);
}

/// A random polygon around `centre`: corners at random radii in order of angle (star-shaped,
/// often concave).
std::vector<glm::dvec2> randomPolygon(std::mt19937& random, glm::dvec2 centre, double size) {
  std::uniform_int_distribution<int> corners(3, 12);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const int n = corners(random);
  std::vector<glm::dvec2> polygon;
  for (int i = 0; i < n; ++i) {
    const double angle = 2.0 * 3.14159265358979 * (i + 0.8 * unit(random)) / n;
    const double radius = size * (0.2 + unit(random));
    polygon.push_back(centre + radius * glm::dvec2(std::cos(angle), std::sin(angle)));
  }
  return polygon;
}

/// Random batches and polygons (plan ones, and ones drawn over a perspective view): kAll and
/// kNone must agree with every point's own test, with and without a box.
TEST(ClipPolygon, BatchClassesAgreeWithEveryPointsTest) {
  std::mt19937 random(11);
  std::uniform_real_distribution<float> coordinate(-50.0f, 50.0f);
  std::uniform_real_distribution<double> size(1.0, 60.0);
  std::uniform_int_distribution<uint32_t> step(0, kQuantSteps);
  const double origin[3] = {1000.0, -2000.0, 30.0};
  int classes[3] = {0, 0, 0};
  for (int trial = 0; trial < 3000; ++trial) {
    float low[3], high[3];
    for (int axis = 0; axis < 3; ++axis) {
      const float a = coordinate(random), b = coordinate(random);
      low[axis] = std::min(a, b) * 0.3f;
      high[axis] = low[axis] + std::abs(a - b) * 0.3f;
    }
    const Batch batch = makeBatch(low, high, 0, kBatchSize);
    ClipSettings settings;
    const glm::dvec2 centre(origin[0] + coordinate(random), origin[1] + coordinate(random));
    const bool keepInside = trial % 2 == 0;
    if (trial % 3 == 2) {
      Camera camera = Camera::lookingFrom({origin[0] - 80.0, origin[1], origin[2] + 20.0}, 0.0f,
                                          -10.0f);
      camera.nearPlane = 1.0f;
      settings.polygon = PolygonSelection(camera, 640.0, 480.0,
                                          randomPolygon(random, {320.0, 240.0}, 150.0),
                                          keepInside);
    } else {
      settings.polygon =
          PolygonSelection::plan(randomPolygon(random, centre, size(random)), keepInside);
    }
    if (trial % 5 == 0) {
      settings.box = ClipBox{{origin[0] - 10, origin[1] - 10, origin[2] - 10},
                             {origin[0] + 10, origin[1] + 10, origin[2] + 10}};
    }
    const ClipFrame frame = makeClipFrame(settings, origin);
    BatchClip clip{};
    const BatchClipClass c = classifyBatchClip(frame, batch, clip);
    ++classes[int(c)];
    const BatchClip full = fullTest(clip, frame);
    for (int point = 0; point < 1000; ++point) {
      const uint32_t w = point < 8 ? word(point & 1 ? kQuantSteps : 0, point & 2 ? kQuantSteps : 0,
                                          point & 4 ? kQuantSteps : 0)
                                   : word(step(random), step(random), step(random));
      const bool kept = clipKeepsQuantized(full, frame.polygon, w);
      // A tested batch's points take the tests its class left: the same answer.
      ASSERT_EQ(kept, c == BatchClipClass::kTested ? clipKeepsQuantized(clip, frame.polygon, w)
                                                   : c == BatchClipClass::kAll)
          << "trial " << trial << ", word " << w;
    }
  }
  for (int count : classes) EXPECT_GT(count, 200);
}

/// The renderer's float test per point against PolygonSelection's double one (export's), for
/// points not within a hair of an edge.
TEST(ClipPolygon, PointTestAgreesWithTheSelectionAwayFromEdges) {
  std::mt19937 random(12);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const double origin[3] = {500000.0, 5000000.0, 100.0};  // UTM-like
  uint64_t compared = 0, selected = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const std::vector<glm::dvec2> corners =
        randomPolygon(random, {origin[0] + 20.0, origin[1] - 10.0}, 30.0);
    ClipSettings settings{.polygon = PolygonSelection::plan(corners, trial % 2 == 0)};
    const ClipFrame frame = makeClipFrame(settings, origin);
    const float low[3] = {-40.0f, -60.0f, -5.0f}, high[3] = {80.0f, 40.0f, 5.0f};
    const Batch batch = makeBatch(low, high, 0, kBatchSize);
    BatchClip clip = makeBatchClip(frame, batch);
    clip.testsRegion = 0;
    for (int point = 0; point < 2000; ++point) {
      const uint32_t q[3] = {uint32_t(unit(random) * kQuantSteps),
                             uint32_t(unit(random) * kQuantSteps),
                             uint32_t(unit(random) * kQuantSteps)};
      glm::dvec3 world;
      for (int axis = 0; axis < 3; ++axis) {
        world[axis] = origin[axis] + double(batch.min[axis]) + q[axis] * double(batch.step[axis]);
      }
      double nearest = HUGE_VAL;  // distance to the nearest edge
      for (size_t i = 0; i < corners.size(); ++i) {
        const glm::dvec2 a = corners[i], b = corners[(i + 1) % corners.size()];
        const glm::dvec2 p(world), d = b - a;
        const double t = std::clamp(glm::dot(p - a, d) / glm::dot(d, d), 0.0, 1.0);
        nearest = std::min(nearest, glm::length(p - (a + t * d)));
      }
      if (nearest < 1e-3) continue;
      ++compared;
      const bool expected = settings.polygon->selects(world);
      selected += expected;
      ASSERT_EQ(clipKeepsQuantized(clip, frame.polygon, word(q[0], q[1], q[2])), expected)
          << "trial " << trial << " at " << world.x << ", " << world.y;
    }
  }
  EXPECT_GT(selected, compared / 10);
  EXPECT_LT(selected, compared * 9 / 10);
}

/// A 64 x 64 grid in the plane x = 0, seen face on from x = -3 through a 640 x 640 image: each
/// point has a pixel of its own, so the lit pixels are the points drawn.
class ClipRender : public ::testing::Test {
 protected:
  void SetUp() override {
    std::vector<Point> grid;
    for (int i = 0; i < 64; ++i) {
      for (int j = 0; j < 64; ++j) {
        grid.push_back({0.0f, (float(i) - 31.5f) / 40.0f, (float(j) - 31.5f) / 40.0f,
                        packRgba(200, 100 + i, 50 + j)});
      }
    }
    renderer_ = createRenderer("cpu");
    renderer_->addSet(grid);
    view_ = makeViewTransform(Camera{}, 640, 640);
  }
  uint64_t lit(const RenderSettings& settings) {
    return test::countLitPixels(test::renderToImage(*renderer_, view_, settings), kOpaqueBlack);
  }
  std::unique_ptr<Renderer> renderer_;
  ViewTransform view_;
};

TEST_F(ClipRender, BoxKeepsExactlyThePointsInside) {
  RenderSettings none;
  ASSERT_EQ(lit(none), 64u * 64u);
  // y and z in [-0.2, 0.3]: grid columns whose (i - 31.5) / 40 lies there, 20 per axis.
  RenderSettings inside;
  inside.clip.box = ClipBox{{-1, -0.2, -0.2}, {1, 0.3, 0.3}};
  EXPECT_EQ(lit(inside), 20u * 20u);
  RenderSettings outside = inside;
  outside.clip.keep = ClipKeep::Outside;
  EXPECT_EQ(lit(outside), 64u * 64u - 20u * 20u);
  // A slab of thickness 0.5 across z (the same 20 rows), with and without the box.
  RenderSettings slab;
  slab.clip.slab = ClipSlab{.normal = {0, 0, 1}, .centre = {0, 0, 0.05}, .thickness = 0.5};
  EXPECT_EQ(lit(slab), 64u * 20u);
  // Oblique: the plane test per point, |y + z| / sqrt(2) <= 0.1 keeps a diagonal band.
  RenderSettings band;
  band.clip.slab = ClipSlab{.normal = {0, 1, 1}, .centre = {0, 0, 0}, .thickness = 0.2};
  uint64_t expected = 0;
  for (int i = 0; i < 64; ++i) {
    for (int j = 0; j < 64; ++j) {
      const double s = ((i - 31.5) / 40.0 + (j - 31.5) / 40.0) / std::sqrt(2.0);
      expected += std::abs(s) <= 0.1;
    }
  }
  EXPECT_EQ(lit(band), expected);
  // The quality pipeline clips alike (two-pixel points: 4 pixels per point, none shared).
  RenderSettings wide = inside;
  wide.quality.pointSizePx = 2;
  EXPECT_EQ(lit(wide), 4u * 20u * 20u);
}

TEST_F(ClipRender, PolygonsKeepExactlyThePointsTheirSelectionDoes) {
  // A plan polygon: the prism over y in [-0.2, 0.3] (20 columns of the grid), whole in z.
  RenderSettings plan;
  plan.clip.polygon = PolygonSelection::plan({{-1, -0.2}, {1, -0.2}, {1, 0.3}, {-1, 0.3}});
  EXPECT_EQ(lit(plan), 20u * 64u);
  plan.clip.polygon->setKeepInside(false);
  EXPECT_EQ(lit(plan), 64u * 64u - 20u * 64u);
  // A concave polygon drawn on this view's screen: the points its double test selects.
  const std::vector<glm::dvec2> corners = {
      {200, 150}, {470, 180}, {330, 320}, {500, 500}, {150, 430}};
  const PolygonSelection drawn(Camera{}, 640.0, 640.0, corners);
  const glm::dmat4 toClip = Camera{}.viewProjectionFromEye(1.0);
  // Points within half a pixel of an edge may fall either way: the renderer tests quantized
  // positions in floats.
  uint64_t expected = 0, onEdge = 0;
  for (int i = 0; i < 64; ++i) {
    for (int j = 0; j < 64; ++j) {
      const glm::dvec3 p(0.0, (float(i) - 31.5f) / 40.0f, (float(j) - 31.5f) / 40.0f);
      expected += drawn.selects(p);
      const glm::dvec4 c = toClip * glm::dvec4(p - Camera{}.eye, 1.0);
      const glm::dvec2 px((c.x / c.w + 1.0) * 320.0, (1.0 - c.y / c.w) * 320.0);
      for (size_t k = 0; k < corners.size(); ++k) {
        const glm::dvec2 a = corners[k], d = corners[(k + 1) % corners.size()] - a;
        const double t = std::clamp(glm::dot(px - a, d) / glm::dot(d, d), 0.0, 1.0);
        if (glm::length(px - (a + t * d)) < 0.5) {
          ++onEdge;
          break;
        }
      }
    }
  }
  ASSERT_GT(expected, 500u);
  RenderSettings screen;
  screen.clip.polygon = drawn;
  EXPECT_LE(std::abs(int64_t(lit(screen)) - int64_t(expected)), int64_t(onEdge));
  // With a box: both keep.
  screen.clip.box = ClipBox{{-1, -0.2, -1}, {1, 0.3, 1}};
  EXPECT_LT(lit(screen), expected);
  EXPECT_GT(lit(screen), 0u);
  // And with the quality pipeline's wide points.
  RenderSettings wide = plan;
  wide.clip.polygon->setKeepInside(true);
  wide.quality.pointSizePx = 2;
  EXPECT_EQ(lit(wide), 4u * 20u * 64u);
}

TEST_F(ClipRender, SixteenByteMethodsRefuseToClip) {
  RenderSettings packed;
  packed.method = RasterMethod::Packed;
  packed.clip.box = ClipBox{{-1, -1, -1}, {1, 1, 1}};
  EXPECT_THROW(lit(packed), InputError);
  RenderSettings inverted;
  inverted.clip.box = ClipBox{{1, 0, 0}, {0, 1, 1}};
  EXPECT_THROW(lit(inverted), InputError);
}

}  // namespace
}  // namespace pcv
