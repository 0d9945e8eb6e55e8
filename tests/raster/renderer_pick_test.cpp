// Picking from the renderer's own depth pass: the point drawn at a pixel, its set, its index
// among the given points (through the kept source order, across the Morton sort) and its
// position; what the frame hides (clipped, or outside the radius) is not picked.
#include <random>

#include "pcv/core/error.hpp"
#include "pcv/raster/view_setup.hpp"
#include "test_support.hpp"

namespace pcv {
namespace {

/// 48 x 48 points in the plane x = 0, shuffled so the Morton sort reorders them.
std::vector<Point> shuffledGrid() {
  std::vector<Point> grid;
  for (int i = 0; i < 48; ++i) {
    for (int j = 0; j < 48; ++j) {
      grid.push_back({0.0f, (float(i) - 23.5f) / 40.0f, (float(j) - 23.5f) / 40.0f,
                      packRgba(100 + i, 100 + j, 50)});
    }
  }
  std::shuffle(grid.begin(), grid.end(), std::mt19937(3));
  return grid;
}

class RendererPick : public ::testing::TestWithParam<PointStorage> {
 protected:
  void SetUp() override {
    points_ = shuffledGrid();
    renderer_ = createRenderer("cpu", {.storage = GetParam()});
    set_ = renderer_->addSet(points_, {.keepSourceOrder = true});
    view_ = makeViewTransform(Camera{}, 640, 480);
  }
  /// The pixel the point's exact position projects to.
  PixelHit pixelOf(const Point& p) const {
    PixelHit hit{};
    EXPECT_TRUE(projectPoint(view_, p.x, p.y, p.z, hit));
    return hit;
  }
  std::vector<Point> points_;
  std::unique_ptr<Renderer> renderer_;
  PointSetId set_ = 0;
  ViewTransform view_;
};

TEST_P(RendererPick, FindsTheDrawnPointAndItsSourceIndex) {
  for (uint64_t source : {0u, 17u, 1000u, 2303u}) {
    const Point& p = points_[source];
    const PixelHit hit = pixelOf(p);
    const std::optional<PickedPoint> picked = renderer_->pick(view_, {}, hit.x, hit.y);
    ASSERT_TRUE(picked) << source;
    EXPECT_EQ(picked->location.set, set_);
    ASSERT_TRUE(picked->sourceIndex);
    EXPECT_EQ(*picked->sourceIndex, source);
    EXPECT_NEAR(picked->viewDepth, 3.0f, 1e-3f);
    if (GetParam() == PointStorage::CompactAndPoints) {
      // The stored 16-byte point: the given coordinates, exactly.
      EXPECT_EQ(picked->position[1], p.y);
      EXPECT_EQ(picked->position[2], p.z);
    } else {
      // The quantized position: within half a step of a batch box no wider than the grid.
      EXPECT_NEAR(picked->position[1], p.y, 1.2 / 2046);
      EXPECT_NEAR(picked->position[2], p.z, 1.2 / 2046);
    }
  }
}

TEST_P(RendererPick, EmptyPixelTakesTheNearestWithinTheRadius) {
  const PixelHit hit = pixelOf(points_[5]);
  const std::optional<PickedPoint> drawn = renderer_->pick(view_, {}, hit.x, hit.y);
  ASSERT_TRUE(drawn);
  // The grid's points are about 3.5 px apart: a pixel beside this one's, with a radius of one,
  // reaches it and no other.
  std::optional<PickedPoint> picked =
      renderer_->pick(view_, {}, drawn->pixelX + 1, drawn->pixelY, 1);
  ASSERT_TRUE(picked);
  EXPECT_EQ(*picked->sourceIndex, *drawn->sourceIndex);
  EXPECT_EQ(picked->pixelX, drawn->pixelX);
  EXPECT_FALSE(renderer_->pick(view_, {}, drawn->pixelX + 1, drawn->pixelY, 0));
  // Far from every point: nothing.
  EXPECT_FALSE(renderer_->pick(view_, {}, 5, 5, 2));
  EXPECT_FALSE(renderer_->pick(view_, {}, -50, 10, 2));
}

TEST_P(RendererPick, WhatTheFrameHidesIsNotPicked) {
  const Point& p = points_[9];
  const PixelHit hit = pixelOf(p);
  RenderSettings clipped;
  clipped.clip.box = ClipBox{{-1, p.y - 0.01, p.z - 0.01}, {1, p.y + 0.01, p.z + 0.01}};
  EXPECT_TRUE(renderer_->pick(view_, clipped, hit.x, hit.y, 0));
  clipped.clip.keep = ClipKeep::Outside;
  EXPECT_FALSE(renderer_->pick(view_, clipped, hit.x, hit.y, 0));
  // Three-pixel points: the footprint's edge pixel names the point with no radius at all.
  RenderSettings wide;
  wide.quality.pointSizePx = 3;
  const std::optional<PickedPoint> edge = renderer_->pick(view_, wide, hit.x + 1, hit.y + 1, 0);
  ASSERT_TRUE(edge);
  EXPECT_EQ(*edge->sourceIndex, 9u);
}

TEST_P(RendererPick, LeavesTheLastFramesTimings) {
  test::renderToImage(*renderer_, view_, {});
  const StageTimings before = renderer_->lastTimings();
  renderer_->pick(view_, {}, 320, 240);
  const StageTimings after = renderer_->lastTimings();
  ASSERT_EQ(before.size(), after.size());
  for (size_t i = 0; i < before.size(); ++i) EXPECT_EQ(before[i].stage, after[i].stage);
}

INSTANTIATE_TEST_SUITE_P(Storages, RendererPick,
                         ::testing::Values(PointStorage::CompactAndPoints, PointStorage::Compact));

TEST(RendererPickOrder, SetsWithoutKeptOrderSayNothingOfTheSource) {
  auto renderer = createRenderer("cpu");
  const std::vector<Point> points = shuffledGrid();
  renderer->addSet(points);
  const std::optional<PickedPoint> picked =
      renderer->pick(makeViewTransform(Camera{}, 640, 480), {}, 320, 240, 8);
  ASSERT_TRUE(picked);
  EXPECT_FALSE(picked->sourceIndex);
  auto unsorted = createRenderer("cpu", {.storage = PointStorage::Unsorted});
  unsorted->addSet(points);
  EXPECT_THROW(unsorted->pick(makeViewTransform(Camera{}, 640, 480), {}, 320, 240),
               UnavailableError);
}

TEST(RendererPickOrder, SourceOrderSpansLayoutSlices) {
  // Slices of one batch: each slice's order is numbered from the set's start.
  auto renderer = createRenderer("cpu", {.layoutSliceBatches = 1});
  std::vector<Point> points;
  for (uint32_t i = 0; i < 3 * 10240 + 77; ++i) {  // three batches and a part
    points.push_back({float((i * 7919) % 1000), float(i % 13), float(i % 101), 0});
  }
  const PointSetId set = renderer->addSet(points, {.keepSourceOrder = true});
  const std::vector<Point> stored = renderer->downloadPoints(set);
  std::vector<bool> seen(points.size(), false);
  for (uint64_t i = 0; i < stored.size(); ++i) {
    const uint64_t source = *renderer->sourceIndex({set, i});
    ASSERT_LT(source, points.size());
    EXPECT_FALSE(seen[source]);
    seen[source] = true;
    EXPECT_EQ(stored[i].x, points[source].x);
    EXPECT_EQ(stored[i].z, points[source].z);
  }
}

}  // namespace
}  // namespace pcv
