// Clipping: the batch classes against the per-point test (a batch kept or cut whole never holds a
// point its own test would treat otherwise), the world-to-offset conversion, and the renderer's
// images: a grid seen face on, one point per pixel, so lit pixels count the points drawn.
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

TEST(ClipRegion, BoxesInsideOutsideAndAcrossABatch) {
  const Batch batch = unitBatch();  // step 1: step counts are coordinates
  BatchClip clip{};
  EXPECT_EQ(classifyBatchClip(boxFrame(glm::dvec3(-1), glm::dvec3(2000)), batch, clip),
            BatchClipClass::kAll);
  EXPECT_EQ(classifyBatchClip(boxFrame(glm::dvec3(1100), glm::dvec3(2000)), batch, clip),
            BatchClipClass::kNone);
  EXPECT_EQ(classifyBatchClip(boxFrame(glm::dvec3(100), glm::dvec3(200)), batch, clip),
            BatchClipClass::kTested);
  EXPECT_TRUE(clipKeepsQuantized(clip, word(150, 100, 200)));
  EXPECT_FALSE(clipKeepsQuantized(clip, word(99, 150, 150)));
  EXPECT_FALSE(clipKeepsQuantized(clip, word(150, 150, 201)));
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
  EXPECT_FALSE(clipKeepsQuantized(clip, word(150, 100, 200)));
  EXPECT_TRUE(clipKeepsQuantized(clip, word(99, 150, 150)));
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
      ASSERT_EQ(clipKeepsQuantized(clip, w), c == BatchClipClass::kAll)
          << "trial " << trial << ", word " << w;
    }
  }
  // The random regions produce every class often.
  for (int count : classes) EXPECT_GT(count, 200);
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
