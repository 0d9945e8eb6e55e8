// Filtered frames of the CPU backend against a reference made here, point by point, from the
// same compact layout (src/raster/cpu/point_layout.hpp) with no batch summaries: the summaries
// may only skip what no point of a batch would have drawn. And the sets a filter cannot test.
#include <gtest/gtest.h>

#include <random>

#include "cpu/point_layout.hpp"
#include "pcv/core/error.hpp"
#include "pcv/core/point_filter.hpp"
#include "pcv/raster/renderer.hpp"
#include "pcv/raster/view_setup.hpp"
#include "shared/framebuffer_word.hpp"
#include "test_support.hpp"

namespace pcv {
namespace {

constexpr uint64_t kPoints = 150'000;

/// Points in clumps of one class each (as ground, trees and roofs are): Morton batches then hold
/// one class or a few; returns and intensity vary per point.
PointCloud clumpedCloud(uint32_t seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  PointCloud cloud;
  cloud.points.resize(kPoints);
  for (const char* name : {"classification", "return_number", "number_of_returns", "intensity"}) {
    cloud.attributes.push_back({name, {}});
    cloud.attributes.back().values.resize(kPoints);
  }
  for (uint64_t i = 0; i < kPoints; ++i) {
    const uint64_t clump = i / 5000;
    const float cx = float(clump % 6) - 2.5f, cy = float(clump / 6 % 5) - 2.0f;
    Point& p = cloud.points[i];
    p.x = cx + 0.45f * unit(random);
    p.y = cy + 0.45f * unit(random);
    p.z = 0.3f * unit(random) + 0.1f * float(clump % 3);
    p.rgba = packRgba(random() % 256, random() % 256, random() % 256);
    const uint32_t count = 1 + random() % 3;
    cloud.attributes[0].values[i] = float(1 + clump % 7);
    cloud.attributes[1].values[i] = float(1 + random() % count);
    cloud.attributes[2].values[i] = float(count);
    cloud.attributes[3].values[i] = float(random() % 4000);
  }
  return cloud;
}

/// The frame drawn point by point: each point of the layout that the filter keeps, projected
/// with the shared per-point code, closest per pixel, lowest slot on ties.
Image referenceImage(const PointCloud& cloud, const PointFilter& filter,
                     const ViewTransform& view) {
  const std::vector<uint32_t> order = mortonOrder(cloud.points);
  std::vector<Point> sorted(cloud.size());
  for (uint64_t i = 0; i < cloud.size(); ++i) sorted[i] = cloud.points[order[i]];
  HostPointPool pool;
  pool.positions.resize(cloud.size());
  pool.colors.resize(cloud.size());
  pool.batches.resize((cloud.size() + kBatchSize - 1) / kBatchSize);
  buildCompactPoints(sorted, pool, 0, 0);
  const CloudFilter keeps(filter, cloud);
  std::vector<uint64_t> words(uint64_t(view.width) * view.height, kEmptyPixel);
  for (const Batch& batch : pool.batches) {
    const BatchProjection projection = makeBatchProjection(view, batch);
    for (uint32_t i = batch.first; i < batch.first + batch.count; ++i) {
      if (!keeps.keeps(order[i])) continue;
      PixelHit hit;
      if (!projectQuantized<true>(projection, pool.positions[i], hit)) continue;
      uint64_t& word = words[uint64_t(hit.y) * view.width + hit.x];
      word = std::min(word, packDepthWord(hit.viewDepth, i));
    }
  }
  Image image(view.width, view.height);
  for (size_t p = 0; p < words.size(); ++p) {
    image.pixels[p] = words[p] == kEmptyPixel ? kOpaqueBlack : pool.colors[payloadOfWord(words[p])];
  }
  return image;
}

class FilterRender : public ::testing::Test {
 protected:
  void SetUp() override {
    cloud_ = clumpedCloud(3);
    renderer_ = createRenderer("cpu");
    set_ = renderer_->addSet(cloud_.points, {.hasColor = true, .keepSourceOrder = true});
    renderer_->setFilterData(*set_, filterDataOf(cloud_.attributes, "intensity"));
    const Camera camera = Camera::lookingFrom({0.0, -7.0, 4.0}, 90.0f, -30.0f);
    view_ = makeViewTransform(camera, 320, 200);
  }
  PointCloud cloud_;
  std::unique_ptr<Renderer> renderer_;
  std::optional<PointSetId> set_;
  ViewTransform view_;
};

TEST_F(FilterRender, FilteredFramesEqualThePointByPointReference) {
  const Image unfiltered = test::renderToImage(*renderer_, view_, {});
  ASSERT_EQ(test::countDifferentPixels(unfiltered, referenceImage(cloud_, {}, view_)), 0u);
  std::vector<PointFilter> filters(6);
  filters[0].classes = parseClassList("2", "--classes");
  filters[1].classes = parseClassList("1,3-5", "--classes");
  filters[2].returns = ReturnChoice::Last;
  filters[3].returns = ReturnChoice::Only;
  filters[3].classes = parseClassList("2-4", "--classes");
  filters[4].ranges = {{"intensity", 100.0, 2000.0}};
  filters[5].returns = ReturnChoice::Number;
  filters[5].returnNumber = 2;
  for (const PointFilter& filter : filters) {
    RenderSettings settings;
    settings.filter = filter;
    const Image image = test::renderToImage(*renderer_, view_, settings);
    const Image reference = referenceImage(cloud_, filter, view_);
    EXPECT_EQ(test::countDifferentPixels(image, reference), 0u) << filterArguments(filter);
    // The filter leaves points out, and some in: neither image is trivial.
    EXPECT_GT(test::countDifferentPixels(image, unfiltered), 100u) << filterArguments(filter);
    EXPECT_GT(test::countLitPixels(image, kOpaqueBlack), 100u) << filterArguments(filter);
  }
}

TEST_F(FilterRender, WholeBatchesFollowTheirSummariesInEveryView) {
  // Every clump's class kept (every batch passes whole: drawn as if unfiltered), none kept
  // (every batch dropped), and mixes whose batches test only the words, only the values or both;
  // from the usual view and from close by, where most batches are outside the view.
  std::vector<PointFilter> filters(5);
  filters[0].classes = parseClassList("1-7", "--classes");
  filters[1].classes = parseClassList("100-120", "--classes");
  filters[2].classes = parseClassList("1-7", "--classes");
  filters[2].ranges = {{"intensity", 500.0, 3000.0}};
  filters[3].classes = parseClassList("2,5", "--classes");
  filters[3].ranges = {{"intensity", 0.0, 5000.0}};
  filters[4].returns = ReturnChoice::First;
  filters[4].ranges = {{"intensity", 500.0, 3000.0}};
  const ViewTransform near =
      makeViewTransform(Camera::lookingFrom({-2.5, -2.4, 0.8}, 90.0f, -60.0f), 320, 200);
  for (int v = 0; v < 2; ++v) {
    const ViewTransform& view = v == 0 ? view_ : near;
    const Image unfiltered = test::renderToImage(*renderer_, view, {});
    ASSERT_GT(test::countLitPixels(unfiltered, kOpaqueBlack), 1000u);
    for (const PointFilter& filter : filters) {
      RenderSettings settings;
      settings.filter = filter;
      const Image image = test::renderToImage(*renderer_, view, settings);
      EXPECT_EQ(test::countDifferentPixels(image, referenceImage(cloud_, filter, view)), 0u)
          << filterArguments(filter) << " view " << v;
    }
    RenderSettings all;
    all.filter = filters[0];
    EXPECT_EQ(test::countDifferentPixels(test::renderToImage(*renderer_, view, all), unfiltered),
              0u);
    RenderSettings none;
    none.filter = filters[1];
    EXPECT_EQ(test::countLitPixels(test::renderToImage(*renderer_, view, none), kOpaqueBlack), 0u);
  }
}

TEST_F(FilterRender, SetsWithTheDataStayFilteredBesideSetsWithout) {
  PointCloud other = clumpedCloud(5);
  for (Point& p : other.points) p.z += 2.0f;
  renderer_->addSet(other.points);
  RenderSettings settings;
  settings.filter.classes = parseClassList("2-3", "--classes");
  settings.filter.ranges = {{"intensity", 0.0, 2500.0}};
  const Image both = test::renderToImage(*renderer_, view_, settings);
  Image alone(view_.width, view_.height);
  const PointSetId only[] = {*set_};
  renderer_->render(only, view_, settings,
                    {alone.pixels.data(), view_.width, view_.height, MemorySpace::Host});
  EXPECT_EQ(test::countDifferentPixels(both, alone), 0u);
  EXPECT_EQ(test::countDifferentPixels(both, referenceImage(cloud_, settings.filter, view_)), 0u);
  EXPECT_GT(test::countLitPixels(both, kOpaqueBlack), 100u);
}

TEST_F(FilterRender, QualityPipelineFiltersToo) {
  RenderSettings settings;
  settings.quality.pointSizePx = 3;
  const Image wide = test::renderToImage(*renderer_, view_, settings);
  settings.filter.classes = parseClassList("2", "--classes");
  const Image filtered = test::renderToImage(*renderer_, view_, settings);
  EXPECT_GT(test::countDifferentPixels(wide, filtered), 1000u);
  EXPECT_GT(test::countLitPixels(filtered, kOpaqueBlack), 100u);
  EXPECT_LT(test::countLitPixels(filtered, kOpaqueBlack), test::countLitPixels(wide, kOpaqueBlack));
}

TEST_F(FilterRender, PickSeesOnlyWhatIsDrawn) {
  RenderSettings settings;
  settings.filter.classes = parseClassList("3", "--classes");
  const Image image = test::renderToImage(*renderer_, view_, settings);
  int picked = 0;
  for (int y = 0; y < view_.height; y += 7) {
    for (int x = 0; x < view_.width; x += 7) {
      const auto hit = renderer_->pick(view_, settings, x, y, 0);
      EXPECT_EQ(hit.has_value(), image.at(x, y) != kOpaqueBlack) << x << "," << y;
      if (!hit) continue;
      ASSERT_TRUE(hit->sourceIndex);
      EXPECT_EQ(cloud_.attributes[0].values[*hit->sourceIndex], 3.0f);
      ++picked;
    }
  }
  EXPECT_GT(picked, 10);
}

TEST_F(FilterRender, SetsWithoutTheDataDrawNothingUnderAFilter) {
  // A second set without filter data: drawn unfiltered, left out while a filter is on.
  PointCloud other = clumpedCloud(4);
  for (Point& p : other.points) p.z += 3.0f;
  const PointSetId plain = renderer_->addSet(other.points);
  renderer_->removeSet(*set_);
  RenderSettings settings;
  EXPECT_GT(test::countLitPixels(test::renderToImage(*renderer_, view_, settings), kOpaqueBlack),
            100u);
  settings.filter.classes = parseClassList("1-7", "--classes");
  EXPECT_EQ(test::countLitPixels(test::renderToImage(*renderer_, view_, settings), kOpaqueBlack),
            0u);
  // Filter data needs the source order to place the values.
  EXPECT_THROW(renderer_->setFilterData(plain, filterDataOf(other.attributes)), InputError);
}

TEST_F(FilterRender, PackedMethodsRefuseFilters) {
  RenderSettings settings;
  settings.method = RasterMethod::Packed;
  settings.filter.returns = ReturnChoice::First;
  Image image(view_.width, view_.height);
  EXPECT_THROW(renderer_->render(view_, settings,
                                 {image.pixels.data(), view_.width, view_.height,
                                  MemorySpace::Host}),
               InputError);
}

}  // namespace
}  // namespace pcv
