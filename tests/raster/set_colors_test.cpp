// Colours replaced in place (Renderer::setColors): the frame equals that of the same points
// added with the new colours, on every storage and backend here, and nothing else of the set
// changes; wrong counts and sets that keep no order are refused.
#include <gtest/gtest.h>

#include <random>

#include "pcv/core/error.hpp"
#include "pcv/raster/backend_choice.hpp"
#include "pcv/raster/renderer.hpp"
#include "test_support.hpp"

namespace pcv {
namespace {

constexpr uint64_t kPoints = 60'000;

std::vector<Point> scatter(uint32_t seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  std::vector<Point> points(kPoints);
  for (Point& p : points) {
    p = Point{unit(random), unit(random), unit(random), packRgba(random() % 256, 40, 40)};
  }
  return points;
}

/// Recolours half the points on `backend` and compares with a set made with those colours.
void expectInPlaceEqualsFresh(const std::string& backend, PointStorage storage) {
  SCOPED_TRACE(backend);
  std::vector<Point> points = scatter(3);
  std::vector<uint32_t> colors(kPoints);
  for (uint64_t i = 0; i < kPoints; ++i) {
    colors[i] = i % 2 == 0 ? packRgba(0, 0, 255) : points[i].rgba;
  }
  const ViewTransform view = test::makeView(Camera{}, 320, 200);
  const RenderSettings settings;

  const std::unique_ptr<Renderer> edited = createRenderer(backend, {.storage = storage});
  const PointSetId set = edited->addSet(points, {.keepSourceOrder = true});
  const Image before = test::renderToImage(*edited, view, settings);
  edited->setColors(set, colors);
  const Image after = test::renderToImage(*edited, view, settings);

  for (uint64_t i = 0; i < kPoints; ++i) points[i].rgba = colors[i];
  const std::unique_ptr<Renderer> fresh = createRenderer(backend, {.storage = storage});
  fresh->addSet(points, {.keepSourceOrder = true});
  const Image expected = test::renderToImage(*fresh, view, settings);
  EXPECT_GT(test::countDifferentPixels(before, after), 1000u);
  EXPECT_EQ(test::countDifferentPixels(after, expected), 0u);
  EXPECT_EQ(edited->pointCount(set), kPoints);
}

TEST(SetColors, InPlaceEqualsAFreshSetOnTheCpu) {
  for (const PointStorage storage :
       {PointStorage::Compact, PointStorage::CompactAndPoints, PointStorage::Unsorted}) {
    expectInPlaceEqualsFresh("cpu", storage);
  }
}

TEST(SetColors, InPlaceEqualsAFreshSetOnVulkan) {
  PCV_REQUIRE_VULKAN();
  for (const PointStorage storage : {PointStorage::Compact, PointStorage::CompactAndPoints}) {
    expectInPlaceEqualsFresh("vulkan", storage);
  }
}

TEST(SetColors, InPlaceEqualsAFreshSetWithCuda) {
  PCV_REQUIRE_CUDA();
  for (const PointStorage storage :
       {PointStorage::Compact, PointStorage::CompactAndPoints, PointStorage::Unsorted}) {
    expectInPlaceEqualsFresh("cuda", storage);
  }
}

TEST(SetColors, WrongCountsAndUnorderedSetsAreRefused) {
  const std::unique_ptr<Renderer> renderer = createRenderer("cpu");
  const std::vector<Point> points = scatter(4);
  const PointSetId unordered = renderer->addSet(points);
  EXPECT_THROW(renderer->setColors(unordered, std::vector<uint32_t>(kPoints)), InputError);
  const PointSetId ordered = renderer->addSet(points, {.keepSourceOrder = true});
  EXPECT_THROW(renderer->setColors(ordered, std::vector<uint32_t>(kPoints - 1)), InputError);
  EXPECT_THROW(renderer->setColors(9999, std::vector<uint32_t>(kPoints)), InputError);
}

}  // namespace
}  // namespace pcv
