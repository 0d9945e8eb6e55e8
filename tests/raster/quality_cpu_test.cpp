// Golden images of the quality pipeline on the CPU backend (the oracle the CUDA backend is held
// to): footprints, world sizes, hole filling, eye-dome lighting, high-quality blending and the
// gradient background, on scenes small enough to know every pixel.
#include <algorithm>
#include <cstdlib>

#include "pcv/core/error.hpp"
#include "quality_scenes.hpp"
#include "test_support.hpp"

namespace pcv {
namespace {

constexpr uint32_t kRed = packRgba(200, 10, 20);
constexpr uint32_t kBlue = packRgba(10, 20, 200);

Image renderPoints(const std::vector<Point>& points, const RenderSettings& settings, int width,
                   int height) {
  auto renderer = createRenderer("cpu");
  renderer->addSet(points);
  return test::renderToImage(*renderer, test::makeView(Camera{}, width, height), settings);
}

RenderSettings withPointSize(int sizePx, PointShape shape = PointShape::Square) {
  RenderSettings settings;
  settings.quality.pointSizePx = sizePx;
  settings.quality.shape = shape;
  return settings;
}

/// Lit pixels of an image as a bounding box and a count.
struct LitArea {
  int minX = 1 << 30, minY = 1 << 30, maxX = -1, maxY = -1;
  uint64_t count = 0;
};
LitArea litArea(const Image& image, uint32_t background) {
  LitArea area;
  for (int y = 0; y < image.height; ++y) {
    for (int x = 0; x < image.width; ++x) {
      if (image.at(x, y) == background) continue;
      area.minX = std::min(area.minX, x);
      area.maxX = std::max(area.maxX, x);
      area.minY = std::min(area.minY, y);
      area.maxY = std::max(area.maxY, y);
      ++area.count;
    }
  }
  return area;
}

TEST(QualityPointSize, SquareOfThreeCoversExactlyTheNinePixelsAroundThePoint) {
  const Image image = renderPoints({{-2.0f, 0.0f, 0.0f, kRed}}, withPointSize(3), 31, 31);
  EXPECT_EQ(test::countLitPixels(image, kOpaqueBlack), 9u);
  for (int y = 14; y <= 16; ++y) {
    for (int x = 14; x <= 16; ++x) EXPECT_EQ(image.at(x, y), kRed) << x << "," << y;
  }
  EXPECT_EQ(test::countLitPixels(image, test::kPoisonPixel), image.pixels.size());
}

TEST(QualityPointSize, RoundOfFourDropsTheCornersAndSquareKeepsThem) {
  const std::vector<Point> point = {{-2.0f, 0.0f, 0.0f, kRed}};
  EXPECT_EQ(test::countLitPixels(renderPoints(point, withPointSize(4), 31, 31), kOpaqueBlack), 16u);
  const Image round = renderPoints(point, withPointSize(4, PointShape::Round), 31, 31);
  EXPECT_EQ(test::countLitPixels(round, kOpaqueBlack), 12u);
  const LitArea area = litArea(round, kOpaqueBlack);
  ASSERT_EQ(area.maxX - area.minX, 3);
  ASSERT_EQ(area.maxY - area.minY, 3);
  for (int cx : {area.minX, area.maxX}) {
    for (int cy : {area.minY, area.maxY}) EXPECT_EQ(round.at(cx, cy), kOpaqueBlack);
  }
}

TEST(QualityPointSize, CloserFootprintWinsAndEqualDepthsKeepTheLowestIndex) {
  // Two points side by side at one depth, a third nearer between them; size 5 overlaps all.
  const std::vector<Point> points = {{-2.0f, 0.03f, 0.0f, kRed},
                                     {-2.0f, -0.03f, 0.0f, kBlue},
                                     {-2.5f, 0.0f, 0.0f, packRgba(0, 255, 0)}};
  const Image image = renderPoints(points, withPointSize(5), 61, 61);
  EXPECT_EQ(image.at(30, 30), packRgba(0, 255, 0));
  // Where only the red and the blue footprints overlap, the lower index (after the backend's
  // Morton order; the same in every run) wins; run twice to see it does not depend on threads.
  const Image again = renderPoints(points, withPointSize(5), 61, 61);
  EXPECT_EQ(test::countDifferentPixels(image, again), 0u);
}

TEST(QualityPointSize, WorldSizeShrinksWithDistance) {
  // 31 px high, 60 degrees: focal = 15.5 / tan(30 deg) = 26.85 px. 0.2 units at distance 1:
  // 5.37 -> 5 px; at distance 2: 2.68 -> 3 px.
  RenderSettings settings;
  settings.quality.sizeMode = PointSizeMode::World;
  settings.quality.worldSize = 0.2f;
  EXPECT_EQ(test::countLitPixels(renderPoints({{-2.0f, 0.0f, 0.0f, kRed}}, settings, 31, 31),
                                 kOpaqueBlack),
            25u);
  EXPECT_EQ(test::countLitPixels(renderPoints({{-1.0f, 0.0f, 0.0f, kRed}}, settings, 31, 31),
                                 kOpaqueBlack),
            9u);
  settings.quality.maxPointSizePx = 4;  // the clamp
  EXPECT_EQ(test::countLitPixels(renderPoints({{-2.0f, 0.0f, 0.0f, kRed}}, settings, 31, 31),
                                 kOpaqueBlack),
            16u);
}

TEST(QualityPointSize, FootprintsOfPointsJustOutsideTheImageReachIn) {
  // 31 px: pixel 0 spans screen x [0, 1). A point projecting one pixel left of the image draws
  // the left column with size 5, and nothing with size 1.
  auto renderer = createRenderer("cpu");
  const ViewTransform view = test::makeView(Camera{}, 31, 31);
  // y = tan(30 deg) * (1 + 3 / 31) at distance 1 lands at screen x -1.5 (left is +y): the
  // middle of the column left of the image, so a 5-wide footprint covers column 0 only.
  const float y = 0.57735027f * 34.0f / 31.0f;
  renderer->addSet(std::vector<Point>{{-2.0f, y, 0.0f, kRed}});
  EXPECT_EQ(test::countLitPixels(test::renderToImage(*renderer, view, {}), kOpaqueBlack), 0u);
  const Image wide = test::renderToImage(*renderer, view, withPointSize(5));
  EXPECT_EQ(test::countLitPixels(wide, kOpaqueBlack), 5u);
  for (int y = 13; y <= 17; ++y) EXPECT_EQ(wide.at(0, y), kRed);
}

TEST(QualityPipeline, OnePixelPointsMatchThePlainCompactMethodExactly) {
  auto renderer = createRenderer("cpu");
  renderer->addSet(CylinderProducer(makeCylinderSet(3), 400'000));
  const ViewTransform view = test::makeView(Camera{}, 320, 200);
  RenderSettings plain;
  plain.background = packRgba(1, 2, 3);
  RenderSettings quality = plain;
  quality.quality.backgroundGradient = true;  // the pipeline runs; the same colour top and bottom
  quality.quality.backgroundTop = plain.background;
  ASSERT_TRUE(needsQualityPipeline(quality.quality));
  const Image a = test::renderToImage(*renderer, view, plain);
  const Image b = test::renderToImage(*renderer, view, quality);
  EXPECT_EQ(test::countDifferentPixels(a, b), 0u);
  EXPECT_GT(test::countLitPixels(a, plain.background), 5000u);
  EXPECT_EQ(renderer->lastTimings().size(), 3u);  // clear, splat, resolve
}

TEST(QualityPipeline, SameImageWithAnyThreadCount) {
  auto renderer = createRenderer("cpu");
  renderer->addSet(CylinderProducer(makeCylinderSet(4), 300'000));
  const ViewTransform view =
      test::makeView(Camera::lookingFrom({-0.8, -0.6, 0.9}, 35.0f, -40.0f), 320, 200);
  RenderSettings settings;
  settings.quality.pointSizePx = 3;
  settings.quality.shape = PointShape::Round;
  settings.quality.fillRadiusPx = 2;
  settings.quality.edl = EdlMode::On;
  settings.quality.highQuality = true;
  setenv("PCV_THREADS", "1", 1);
  const Image single = test::renderToImage(*renderer, view, settings);
  setenv("PCV_THREADS", "7", 1);
  const Image many = test::renderToImage(*renderer, view, settings);
  unsetenv("PCV_THREADS");
  EXPECT_EQ(test::countDifferentPixels(single, many), 0u);
  EXPECT_EQ(test::countLitPixels(single, test::kPoisonPixel), single.pixels.size());
}

TEST(QualityFill, ClosesAHoleWithoutGrowingTheOutline) {
  // 101 px: a pixel is 1/87.5 units at distance 1; points every 0.4 px, a hole ~2.5 px wide.
  const std::vector<Point> plane =
      test::planeOfPoints(-2.0f, 0.3f, 0.0045f, kRed, 0.05f, 0.05f, 0.015f);
  const Image plain = renderPoints(plane, {}, 101, 101);
  const LitArea area = litArea(plain, kOpaqueBlack);
  const uint64_t box = uint64_t(area.maxX - area.minX + 1) * (area.maxY - area.minY + 1);
  const uint64_t holes = box - area.count;
  ASSERT_GT(holes, 2u);
  ASSERT_LT(holes, 30u);
  RenderSettings fill;
  fill.quality.fillRadiusPx = 2;
  const Image filled = renderPoints(plane, fill, 101, 101);
  const LitArea after = litArea(filled, kOpaqueBlack);
  EXPECT_EQ(after.count, box);  // every hole pixel filled, nothing outside the square
  EXPECT_EQ(after.minX, area.minX);
  EXPECT_EQ(after.maxX, area.maxX);
  EXPECT_EQ(after.minY, area.minY);
  EXPECT_EQ(after.maxY, area.maxY);
  EXPECT_EQ(test::countLitPixels(filled, kRed), filled.pixels.size() - box);  // filled with red
}

TEST(QualityFill, APixelSeeingThroughToAFarSurfaceTakesTheNearOne) {
  std::vector<Point> points = test::planeOfPoints(-2.0f, 0.3f, 0.0045f, kRed, 0.05f, 0.05f, 0.015f);
  const std::vector<Point> back = test::planeOfPoints(1.0f, 1.5f, 0.01f, kBlue);
  points.insert(points.end(), back.begin(), back.end());
  const Image plain = renderPoints(points, {}, 101, 101);
  RenderSettings fill;
  fill.quality.fillRadiusPx = 2;
  const Image filled = renderPoints(points, fill, 101, 101);
  const LitArea front = litArea(
      renderPoints(test::planeOfPoints(-2.0f, 0.3f, 0.0045f, kRed), {}, 101, 101), kOpaqueBlack);
  uint64_t blueInsideBefore = 0, blueInsideAfter = 0;
  for (int y = front.minY; y <= front.maxY; ++y) {
    for (int x = front.minX; x <= front.maxX; ++x) {
      blueInsideBefore += plain.at(x, y) == kBlue;
      blueInsideAfter += filled.at(x, y) == kBlue;
    }
  }
  EXPECT_GT(blueInsideBefore, 2u);
  EXPECT_EQ(blueInsideAfter, 0u);
  // The back plane around the front square is not painted red: outside it nothing changes.
  uint64_t changedOutside = 0;
  for (int y = 0; y < filled.height; ++y) {
    for (int x = 0; x < filled.width; ++x) {
      const bool inside = x >= front.minX && x <= front.maxX && y >= front.minY && y <= front.maxY;
      changedOutside += !inside && filled.at(x, y) != plain.at(x, y);
    }
  }
  EXPECT_EQ(changedOutside, 0u);
}

TEST(QualityEdl, LeavesAFlatAreaUntouchedAndDarkensTheFarSideOfAnEdge) {
  // A near square in front of a far plane that fills the view, both facing the camera.
  std::vector<Point> points = test::planeOfPoints(-2.0f, 0.2f, 0.004f, kRed);
  const std::vector<Point> back = test::planeOfPoints(0.0f, 2.0f, 0.015f, packRgba(160, 160, 160));
  points.insert(points.end(), back.begin(), back.end());
  RenderSettings off, on;
  on.quality.edl = EdlMode::On;
  const Image plain = renderPoints(points, off, 101, 101);
  const Image shaded = renderPoints(points, on, 101, 101);
  ASSERT_EQ(test::countLitPixels(plain, kOpaqueBlack), plain.pixels.size());  // no gaps
  auto isFront = [&](int x, int y) {
    return x >= 0 && y >= 0 && x < 101 && y < 101 && plain.at(x, y) == kRed;
  };
  uint64_t edge = 0, darkened = 0, changedElsewhere = 0;
  for (int y = 0; y < 101; ++y) {
    for (int x = 0; x < 101; ++x) {
      bool nextToFront = false;  // one of the 8 neighbours at radius 1 is the near square
      for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) nextToFront |= isFront(x + dx, y + dy);
      }
      if (!isFront(x, y) && nextToFront) {
        ++edge;
        darkened += redOf(shaded.at(x, y)) < redOf(plain.at(x, y));
      } else {
        changedElsewhere += shaded.at(x, y) != plain.at(x, y);
      }
    }
  }
  EXPECT_GT(edge, 100u);
  EXPECT_EQ(darkened, edge);        // the far side of the edge, all around
  EXPECT_EQ(changedElsewhere, 0u);  // both flat areas keep their colours exactly
}

TEST(QualityEdl, StrengthZeroChangesNothing) {
  auto renderer = createRenderer("cpu");
  renderer->addSet(CylinderProducer(makeCylinderSet(5), 200'000));
  const ViewTransform view = test::makeView(Camera{}, 200, 120);
  RenderSettings gradient;  // keeps the pipeline on without EDL
  gradient.quality.backgroundGradient = true;
  RenderSettings edl = gradient;
  edl.quality.edl = EdlMode::On;
  edl.quality.edlStrength = 0.0f;
  EXPECT_EQ(test::countDifferentPixels(test::renderToImage(*renderer, view, gradient),
                                       test::renderToImage(*renderer, view, edl)),
            0u);
}

TEST(QualityBlend, AveragesCoLocatedColorsExactly) {
  const std::vector<Point> points = {{-2.0f, 0.0f, 0.0f, packRgba(100, 0, 0)},
                                     {-2.0f, 0.0f, 0.0f, packRgba(201, 50, 7)}};
  RenderSettings hq;
  hq.quality.highQuality = true;
  const Image image = renderPoints(points, hq, 31, 31);
  EXPECT_EQ(image.at(15, 15), packRgba(151, 25, 4));  // (sum + count / 2) / count per channel
  EXPECT_EQ(test::countLitPixels(image, kOpaqueBlack), 1u);
}

TEST(QualityBlend, BlendsOnlyWithinTheRelativeDepthRange) {
  // Distances 1, 1.005 (within 1 %) and 1.02 (not) along the same ray.
  const std::vector<Point> points = {{-2.0f, 0.0f, 0.0f, packRgba(90, 0, 0)},
                                     {-1.995f, 0.0f, 0.0f, packRgba(30, 0, 0)},
                                     {-1.98f, 0.0f, 0.0f, packRgba(255, 255, 255)}};
  RenderSettings hq;
  hq.quality.highQuality = true;
  EXPECT_EQ(renderPoints(points, hq, 31, 31).at(15, 15), packRgba(60, 0, 0));
  hq.quality.hqDepthRange = 0.03f;
  EXPECT_EQ(renderPoints(points, hq, 31, 31).at(15, 15), packRgba(125, 85, 85));
  hq.quality.highQuality = false;
  hq.quality.pointSizePx = 1;
  EXPECT_EQ(renderPoints(points, hq, 31, 31).at(15, 15), packRgba(90, 0, 0));
}

TEST(QualityBackground, VerticalGradientInExactIntegers) {
  RenderSettings settings;
  settings.background = packRgba(0, 100, 255);
  settings.quality.backgroundGradient = true;
  settings.quality.backgroundTop = packRgba(200, 0, 55);
  const Image image = renderPoints({}, settings, 3, 5);
  // Row y of 5: (bottom * (4 - y) + top * y + 2) / 4.
  EXPECT_EQ(image.at(0, 0), packRgba(0, 100, 255));
  EXPECT_EQ(image.at(1, 1), packRgba(50, 75, 205));
  EXPECT_EQ(image.at(2, 2), packRgba(100, 50, 155));
  EXPECT_EQ(image.at(0, 3), packRgba(150, 25, 105));
  EXPECT_EQ(image.at(2, 4), packRgba(200, 0, 55));
}

TEST(QualitySettingsCheck, RejectsOutOfRangeValues) {
  auto renderer = createRenderer("cpu");
  renderer->addSet(std::vector<Point>{{-2.0f, 0.0f, 0.0f, kRed}});
  const ViewTransform view = test::makeView(Camera{}, 31, 31);
  for (auto edit : {+[](QualitySettings& q) { q.pointSizePx = 17; },
                    +[](QualitySettings& q) { q.pointSizePx = 0; },
                    +[](QualitySettings& q) { q.fillRadiusPx = 9; },
                    +[](QualitySettings& q) {
                      q.edl = EdlMode::On;
                      q.edlRadiusPx = 0;
                    },
                    +[](QualitySettings& q) {
                      q.sizeMode = PointSizeMode::World;
                      q.worldSize = -1.0f;
                    }}) {
    RenderSettings settings;
    edit(settings.quality);
    EXPECT_THROW(test::renderToImage(*renderer, view, settings), InputError);
  }
}

TEST(QualitySettingsCheck, NeedsTheCompactLayout) {
  auto renderer = createRenderer("cpu", {.storage = PointStorage::Unsorted});
  renderer->addSet(std::vector<Point>{{-2.0f, 0.0f, 0.0f, kRed}});
  EXPECT_THROW(test::renderToImage(*renderer, test::makeView(Camera{}, 31, 31), withPointSize(3)),
               InputError);
  // Defaults keep every method working.
  EXPECT_NO_THROW(test::renderToImage(*renderer, test::makeView(Camera{}, 31, 31), {}));
}

}  // namespace
}  // namespace pcv
