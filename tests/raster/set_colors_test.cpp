// Colours replaced in place (Renderer::setColors): the frame equals that of the same points
// added with the new colours, on every storage and backend here, and nothing else of the set
// changes; wrong counts and sets that keep no order are refused. Some points' colours and
// classes changed alone (Renderer::changeClasses): frames, filtered by class or not, equal
// those of a set made with the new values.
#include <gtest/gtest.h>

#include <random>

#include "pcv/core/error.hpp"
#include "pcv/core/point_filter.hpp"
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

/// Every third point becomes class 6 and blue on `backend` through changeClasses; the frames
/// unfiltered and filtered to classes 6, and 1-3, equal a fresh set's with those values.
/// Returns false where the backend cannot change points alone (then nothing may change).
bool expectChangedClassesEqualFresh(const std::string& backend, PointStorage storage) {
  SCOPED_TRACE(backend);
  std::vector<Point> points = scatter(5);
  std::vector<float> classes(kPoints);
  for (uint64_t i = 0; i < kPoints; ++i) classes[i] = float(1 + i % 5);
  std::vector<uint64_t> changed;
  for (uint64_t i = 0; i < kPoints; i += 3) changed.push_back(i);
  const std::vector<uint32_t> colors(changed.size(), packRgba(0, 0, 255));
  const std::vector<float> newClasses(changed.size(), 6.0f);
  const ViewTransform view = test::makeView(Camera{}, 320, 200);
  RenderSettings sixes, lowClasses;
  sixes.filter.classes = parseClassList("6", "--classes");
  lowClasses.filter.classes = parseClassList("1-3", "--classes");
  const auto frames = [&](Renderer& renderer) {
    return std::vector<Image>{test::renderToImage(renderer, view, RenderSettings{}),
                              test::renderToImage(renderer, view, sixes),
                              test::renderToImage(renderer, view, lowClasses)};
  };

  const std::unique_ptr<Renderer> edited = createRenderer(backend, {.storage = storage});
  const PointSetId set = edited->addSet(points, {.keepSourceOrder = true});
  edited->setFilterData(set, FilterData{.classification = classes});
  const std::vector<Image> before = frames(*edited);
  if (!edited->changeClasses(set, changed, colors, newClasses)) {
    const std::vector<Image> after = frames(*edited);
    for (size_t f = 0; f < before.size(); ++f) {
      EXPECT_EQ(test::countDifferentPixels(before[f], after[f]), 0u) << "frame " << f;
    }
    return false;
  }
  const std::vector<Image> after = frames(*edited);

  for (size_t k = 0; k < changed.size(); ++k) {
    points[changed[k]].rgba = colors[k];
    classes[changed[k]] = 6.0f;
  }
  const std::unique_ptr<Renderer> fresh = createRenderer(backend, {.storage = storage});
  const PointSetId freshSet = fresh->addSet(points, {.keepSourceOrder = true});
  fresh->setFilterData(freshSet, FilterData{.classification = classes});
  const std::vector<Image> expected = frames(*fresh);
  EXPECT_GT(test::countDifferentPixels(before[0], after[0]), 1000u);
  EXPECT_GT(test::countDifferentPixels(before[1], after[1]), 1000u);  // none were 6 before
  for (size_t f = 0; f < after.size(); ++f) {
    EXPECT_EQ(test::countDifferentPixels(after[f], expected[f]), 0u) << "frame " << f;
  }
  return true;
}

TEST(ChangeClasses, SomePointsChangedEqualAFreshSetOnTheCpu) {
  for (const PointStorage storage : {PointStorage::Compact, PointStorage::CompactAndPoints}) {
    EXPECT_TRUE(expectChangedClassesEqualFresh("cpu", storage));
  }
}

TEST(ChangeClasses, SomePointsChangedEqualAFreshSetWithCuda) {
  PCV_REQUIRE_CUDA();
  for (const PointStorage storage : {PointStorage::Compact, PointStorage::CompactAndPoints}) {
    EXPECT_TRUE(expectChangedClassesEqualFresh("cuda", storage));
  }
}

TEST(ChangeClasses, SomePointsChangedEqualAFreshSetOnVulkan) {
  PCV_REQUIRE_VULKAN();
  EXPECT_TRUE(expectChangedClassesEqualFresh("vulkan", PointStorage::Compact));
  // The 16-byte points' colours are out of the shader's reach: it says so and changes nothing.
  EXPECT_FALSE(expectChangedClassesEqualFresh("vulkan", PointStorage::CompactAndPoints));
}

TEST(ChangeClasses, WrongCountsIndicesAndUnorderedSetsAreRefused) {
  const std::unique_ptr<Renderer> renderer = createRenderer("cpu");
  const std::vector<Point> points = scatter(6);
  const std::vector<uint64_t> two = {0, 1};
  const std::vector<uint32_t> colors(2);
  const PointSetId unordered = renderer->addSet(points);
  EXPECT_THROW(renderer->changeClasses(unordered, two, colors, {}), InputError);
  const PointSetId ordered = renderer->addSet(points, {.keepSourceOrder = true});
  EXPECT_THROW(renderer->changeClasses(ordered, two, std::vector<uint32_t>(1), {}), InputError);
  EXPECT_THROW(renderer->changeClasses(ordered, std::vector<uint64_t>{0, kPoints}, colors, {}),
               InputError);
  EXPECT_THROW(renderer->changeClasses(9999, two, colors, {}), InputError);
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
