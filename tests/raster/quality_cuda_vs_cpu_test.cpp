// The CUDA quality pipeline against the CPU oracle, mode by mode: every mode uses the same
// per-point and per-pixel code and integer accumulation, so the images must be identical.
// Skipped (never passed) without a usable CUDA device.
#include "pcv/raster/quality_presets.hpp"
#include "pcv/demo/cylinder_producer.hpp"
#include "pcv/demo/cylinder_viewpoints.hpp"
#include "test_support.hpp"

namespace pcv {
namespace {

const test::ImageSizeCase kSizes[] = {{1280, 720}, {333, 217}};

TEST(QualityCudaVsCpu, EveryModeIsPixelIdenticalAtFourViewsAndTwoSizes) {
  PCV_REQUIRE_CUDA();
  auto cuda = createRenderer("cuda");
  auto cpu = createRenderer("cpu");
  const CylinderProducer points(makeCylinderSet(12), 2'000'000);
  cuda->addSet(points);
  cpu->addSet(points);
  for (const QualityPreset& mode : qualityPresets()) {
    RenderSettings settings;
    settings.background = packRgba(7, 8, 9);
    mode.apply(settings.quality);
    for (const CylinderViewpoint& v : kCylinderViewpoints) {
      for (const auto& size : kSizes) {
        const ViewTransform view = test::makeView(v.camera(), size.width, size.height);
        const Image gpu = test::renderToImage(*cuda, view, settings);
        const Image reference = test::renderToImage(*cpu, view, settings);
        EXPECT_EQ(test::countLitPixels(gpu, test::kPoisonPixel), gpu.pixels.size())
            << mode.name << " at " << v.name;
        EXPECT_EQ(test::countDifferentPixels(gpu, reference), 0u)
            << mode.name << " at " << v.name << ", " << size.width << "x" << size.height;
      }
    }
  }
}

TEST(QualityCudaVsCpu, DefaultsLaunchThePlainMethodsStages) {
  PCV_REQUIRE_CUDA();
  auto cuda = createRenderer("cuda");
  cuda->addSet(CylinderProducer(makeCylinderSet(12), 100'000));
  const ViewTransform view = test::makeView(Camera{}, 320, 200);
  test::renderToImage(*cuda, view, {});
  for (const StageTiming& stage : cuda->lastTimings()) {
    EXPECT_TRUE(stage.stage == "clear" || stage.stage == "cull" || stage.stage == "raster" ||
                stage.stage == "resolve")
        << stage.stage;
  }
  // EDL runs the quality pipeline: one-pixel points through the compact stages, then "shade".
  RenderSettings edl;
  edl.quality.edl = EdlMode::On;
  test::renderToImage(*cuda, view, edl);
  bool shade = false, splat = false;
  for (const StageTiming& stage : cuda->lastTimings()) {
    shade |= stage.stage == "shade";
    splat |= stage.stage == "splat";
  }
  EXPECT_TRUE(shade);
  EXPECT_FALSE(splat);
  // Wider points take the splat kernel.
  RenderSettings wide;
  wide.quality.pointSizePx = 3;
  test::renderToImage(*cuda, view, wide);
  splat = false;
  for (const StageTiming& stage : cuda->lastTimings()) splat |= stage.stage == "splat";
  EXPECT_TRUE(splat);
}

}  // namespace
}  // namespace pcv
