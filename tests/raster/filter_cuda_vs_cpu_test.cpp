// Filtered frames of the CUDA backend against the CPU oracle, pixel for pixel: the compact
// method (summaries, the tested-batch kernel) and the quality pipeline, on synthetic filter data
// over the cylinders. Skipped (with the reason) without a usable CUDA device.
#include <gtest/gtest.h>

#include "pcv/core/point_filter.hpp"
#include "pcv/scene/cylinder_producer.hpp"
#include "pcv/scene/cylinder_viewpoints.hpp"
#include "pcv/scene/cylinders.hpp"
#include "test_support.hpp"

namespace pcv {
namespace {

constexpr uint64_t kPoints = 2'000'000;
constexpr RendererOptions kSlicedLayout{.layoutSliceBatches = 37};

/// Class 1 + the cylinder (points lie on cylinder floor(i * 10 / n)), returns and intensity by
/// a hash of the index.
FilterFields fieldsOf(uint64_t i) {
  uint64_t h = i * 0x9E3779B97F4A7C15ull;
  h ^= h >> 29;
  return {.classification = uint8_t(1 + i * 10 / kPoints),
          .returnNumber = uint8_t(1 + (h >> 7) % 3),
          .numberOfReturns = uint8_t(1 + (h >> 11) % 3),
          .rangeValue = float((h >> 20) % 4096)};
}

TEST(FilterCudaVsCpu, FilteredFramesArePixelIdentical) {
  PCV_REQUIRE_CUDA();
  std::unique_ptr<Renderer> cuda = createRenderer("cuda", kSlicedLayout);
  std::unique_ptr<Renderer> cpu = createRenderer("cpu", kSlicedLayout);
  const CylinderProducer points(makeCylinderScene(11), kPoints);
  for (Renderer* renderer : {cuda.get(), cpu.get()}) {
    const PointSetId set = renderer->addSet(points, {.keepSourceOrder = true});
    renderer->setFilterData(set, fieldsOf, "intensity");
  }
  std::vector<PointFilter> filters(5);
  filters[0].classes = parseClassList("2", "--classes");
  filters[1].classes = parseClassList("1-5,9", "--classes");
  filters[2].returns = ReturnChoice::Last;
  filters[3].ranges = {{"intensity", 100.0, 2000.0}};
  filters[4].returns = ReturnChoice::Only;
  filters[4].classes = parseClassList("3-8", "--classes");
  for (const PointFilter& filter : filters) {
    uint64_t changed = 0;  // pixels the filter changes, over every view: the test is not vacuous
    for (const CylinderViewpoint& viewpoint : kCylinderViewpoints) {
      const ViewTransform view = test::makeView(viewpoint.camera(), 640, 360);
      for (int pointSize : {1, 3}) {
        RenderSettings settings;
        settings.filter = filter;
        settings.quality.pointSizePx = pointSize;
        const Image gpu = test::renderToImage(*cuda, view, settings);
        const Image host = test::renderToImage(*cpu, view, settings);
        EXPECT_EQ(test::countDifferentPixels(gpu, host), 0u)
            << viewpoint.name << filterArguments(filter) << " size " << pointSize;
        settings.filter = {};
        changed += test::countDifferentPixels(gpu, test::renderToImage(*cpu, view, settings));
      }
    }
    EXPECT_GT(changed, 1000u) << filterArguments(filter);
  }
}

}  // namespace
}  // namespace pcv
