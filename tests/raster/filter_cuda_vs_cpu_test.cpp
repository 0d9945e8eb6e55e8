// Filtered frames of the CUDA backend against the CPU oracle, pixel for pixel: the compact
// method (summaries, the tested-batch kernels) and the quality pipeline, on synthetic filter data
// over the cylinders; batches passing whole, dropped and tested, in views that cull most of them,
// beside clip regions and sets without filter data. Skipped (with the reason) without a usable
// CUDA device.
#include <gtest/gtest.h>

#include "pcv/core/point_filter.hpp"
#include "pcv/demo/cylinder_producer.hpp"
#include "pcv/demo/cylinder_viewpoints.hpp"
#include "pcv/demo/cylinders.hpp"
#include "synthetic_filter_fields.hpp"
#include "test_support.hpp"

namespace pcv {
namespace {

constexpr uint64_t kPoints = 2'000'000;
constexpr RendererOptions kSlicedLayout{.layoutSliceBatches = 37};

FilterFields fieldsOf(uint64_t i) {
  return test::syntheticFilterFields(i, kPoints);
}

TEST(FilterCudaVsCpu, FilteredFramesArePixelIdentical) {
  PCV_REQUIRE_CUDA();
  std::unique_ptr<Renderer> cuda = createRenderer("cuda", kSlicedLayout);
  std::unique_ptr<Renderer> cpu = createRenderer("cpu", kSlicedLayout);
  const CylinderProducer points(makeCylinderSet(11), kPoints);
  for (Renderer* renderer : {cuda.get(), cpu.get()}) {
    const PointSetId set = renderer->addSet(points, {.keepSourceOrder = true});
    renderer->setFilterData(set, fieldsOf, "intensity");
  }
  for (const PointFilter& filter : test::comparisonFilters()) {
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

TEST(FilterCudaVsCpu, WholeMixedAndCulledBatchesArePixelIdentical) {
  PCV_REQUIRE_CUDA();
  std::unique_ptr<Renderer> cuda = createRenderer("cuda", kSlicedLayout);
  std::unique_ptr<Renderer> cpu = createRenderer("cpu", kSlicedLayout);
  const CylinderProducer points(makeCylinderSet(11), kPoints);
  for (Renderer* renderer : {cuda.get(), cpu.get()}) {
    const PointSetId set = renderer->addSet(points, {.keepSourceOrder = true});
    renderer->setFilterData(set, fieldsOf, "intensity");
  }
  // Every batch passing whole (the unfiltered raster), none, batches that test only the values
  // (class 2 kept whole, a range), only the words (a range every value passes, first returns),
  // and a clip box beside a filter (the clip raster's filter tests).
  std::vector<RenderSettings> cases(6);
  cases[0].filter.classes = parseClassList("0-199", "--classes");
  cases[1].filter.classes = parseClassList("200", "--classes");
  cases[2].filter.classes = parseClassList("2", "--classes");
  cases[2].filter.ranges = {{"intensity", 300.0, 2500.0}};
  cases[3].filter.returns = ReturnChoice::First;
  cases[3].filter.ranges = {{"intensity", 0.0, 5000.0}};
  cases[4].filter.classes = parseClassList("2-6", "--classes");
  cases[4].filter.returns = ReturnChoice::Last;
  cases[4].clip.box = ClipBox{{-0.6, -0.5, -0.4}, {0.5, 0.6, 0.7}};
  cases[5].filter.ranges = {{"intensity", 0.0, 1000.0}};
  cases[5].clip.box = ClipBox{{-0.6, -0.5, -0.4}, {0.5, 0.6, 0.7}};
  cases[5].clip.keep = ClipKeep::Outside;
  // The scene's views, and a narrow one that leaves most batches outside.
  std::vector<std::pair<std::string, ViewTransform>> views;
  for (const CylinderViewpoint& viewpoint : kCylinderViewpoints)
    views.emplace_back(viewpoint.name, test::makeView(viewpoint.camera(), 640, 360));
  const CylinderSet scene = makeCylinderSet(11);  // kept: `centre` points into it
  const float* centre = scene.cylinders[0].center;
  Camera narrow;
  narrow.lookAlong(glm::dvec3(centre[0], centre[1], centre[2]) - narrow.eye);
  narrow.fovYRadians = glm::radians(6.0f);
  views.emplace_back("narrow", test::makeView(narrow, 640, 360));
  for (const auto& [name, view] : views) {
    const Image unfiltered = test::renderToImage(*cuda, view, {});
    // The far view shows the scene a few hundred pixels wide at this size.
    EXPECT_GT(test::countLitPixels(unfiltered, RenderSettings{}.background), 100u) << name;
    for (size_t c = 0; c < cases.size(); ++c) {
      const Image host = test::renderToImage(*cpu, view, cases[c]);
      // The first frame of a filter tests the split batches and keeps the verdicts; the second
      // reads them.
      for (int frame = 0; frame < 2; ++frame) {
        EXPECT_EQ(test::countDifferentPixels(test::renderToImage(*cuda, view, cases[c]), host), 0u)
            << name << filterArguments(cases[c].filter) << " case " << c << " frame " << frame;
      }
    }
    // Every point passing draws the unfiltered frame; none passing draws nothing.
    EXPECT_EQ(test::countDifferentPixels(test::renderToImage(*cuda, view, cases[0]), unfiltered),
              0u)
        << name;
    EXPECT_EQ(test::countLitPixels(test::renderToImage(*cuda, view, cases[1]),
                                   RenderSettings{}.background),
              0u)
        << name;
  }
}

TEST(FilterCudaVsCpu, KeptVerdictsFollowNewFilterData) {
  PCV_REQUIRE_CUDA();
  std::unique_ptr<Renderer> cuda = createRenderer("cuda", kSlicedLayout);
  std::unique_ptr<Renderer> cpu = createRenderer("cpu", kSlicedLayout);
  const CylinderProducer points(makeCylinderSet(11), kPoints);
  std::vector<PointSetId> sets;
  for (Renderer* renderer : {cuda.get(), cpu.get()}) {
    sets.push_back(renderer->addSet(points, {.keepSourceOrder = true}));
    renderer->setFilterData(sets.back(), fieldsOf, "intensity");
  }
  RenderSettings settings;
  settings.filter.returns = ReturnChoice::First;
  settings.filter.ranges = {{"intensity", 0.0, 2000.0}};
  const ViewTransform view = test::makeView(kCylinderViewpoints[0].camera(), 640, 360);
  const Image before = test::renderToImage(*cpu, view, settings);
  for (int frame = 0; frame < 2; ++frame) {
    EXPECT_EQ(test::countDifferentPixels(test::renderToImage(*cuda, view, settings), before), 0u);
  }
  // New data under the same filter: the verdicts kept for the old data must not be read.
  const auto shifted = [](uint64_t i) {
    FilterFields f = fieldsOf(i + 12345);
    f.classification = fieldsOf(i).classification;
    return f;
  };
  cuda->setFilterData(sets[0], shifted, "intensity");
  cpu->setFilterData(sets[1], shifted, "intensity");
  const Image after = test::renderToImage(*cpu, view, settings);
  EXPECT_GT(test::countDifferentPixels(before, after), 1000u);
  for (int frame = 0; frame < 2; ++frame) {
    EXPECT_EQ(test::countDifferentPixels(test::renderToImage(*cuda, view, settings), after), 0u);
  }
}

TEST(FilterCudaVsCpu, SetsWithoutFilterDataBesideOnesWithAreLeftOutAlike) {
  PCV_REQUIRE_CUDA();
  std::unique_ptr<Renderer> cuda = createRenderer("cuda", kSlicedLayout);
  std::unique_ptr<Renderer> cpu = createRenderer("cpu", kSlicedLayout);
  const CylinderProducer points(makeCylinderSet(11), kPoints / 4);
  const CylinderProducer plain(makeCylinderSet(12), kPoints / 4);
  for (Renderer* renderer : {cuda.get(), cpu.get()}) {
    const PointSetId set = renderer->addSet(points, {.keepSourceOrder = true});
    renderer->setFilterData(set, fieldsOf, "intensity");
    renderer->addSet(plain);
  }
  RenderSettings settings;
  settings.filter.classes = parseClassList("1-3", "--classes");
  settings.filter.ranges = {{"intensity", 100.0, 3000.0}};
  for (const CylinderViewpoint& viewpoint : kCylinderViewpoints) {
    const ViewTransform view = test::makeView(viewpoint.camera(), 640, 360);
    EXPECT_EQ(test::countDifferentPixels(test::renderToImage(*cuda, view, settings),
                                         test::renderToImage(*cpu, view, settings)),
              0u)
        << viewpoint.name;
  }
}

}  // namespace
}  // namespace pcv
