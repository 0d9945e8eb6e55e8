// The CUDA quality pipeline against the CPU oracle, mode by mode: every mode uses the same
// per-point and per-pixel code and integer accumulation, so the images must be identical.
// Skipped (never passed) without a usable CUDA device.
#include "pcv/scene/cylinder_viewpoints.hpp"
#include "test_support.hpp"

namespace pcv {
namespace {

struct Mode {
  const char* name;
  void (*apply)(QualitySettings&);
};
const Mode kModes[] = {
    {"size3", [](QualitySettings& q) { q.pointSizePx = 3; }},
    {"size2", [](QualitySettings& q) { q.pointSizePx = 2; }},
    {"round8",
     [](QualitySettings& q) {
       q.pointSizePx = 8;
       q.shape = PointShape::Round;
     }},
    {"size16", [](QualitySettings& q) { q.pointSizePx = 16; }},
    {"world",
     [](QualitySettings& q) {
       q.sizeMode = PointSizeMode::World;
       q.worldSize = 0.01f;
     }},
    {"fill2", [](QualitySettings& q) { q.fillRadiusPx = 2; }},
    {"edl", [](QualitySettings& q) { q.edl = true; }},
    {"edl-r3",
     [](QualitySettings& q) {
       q.edl = true;
       q.edlRadiusPx = 3;
       q.edlStrength = 2.0f;
     }},
    {"hq", [](QualitySettings& q) { q.highQuality = true; }},
    {"gradient",
     [](QualitySettings& q) {
       q.backgroundGradient = true;
       q.backgroundTop = packRgba(30, 60, 90);
     }},
    {"all",
     [](QualitySettings& q) {
       q.pointSizePx = 3;
       q.shape = PointShape::Round;
       q.fillRadiusPx = 3;
       q.edl = true;
       q.highQuality = true;
       q.backgroundGradient = true;
     }},
};

const test::ImageSizeCase kSizes[] = {{1280, 720}, {333, 217}};

TEST(QualityCudaVsCpu, EveryModeIsPixelIdenticalAtFourViewsAndTwoSizes) {
  PCV_REQUIRE_CUDA();
  auto cuda = createBackend("cuda");
  auto cpu = createBackend("cpu");
  const CylinderScene scene = makeCylinderScene(12);
  cuda->generateCylinders(scene, 2'000'000);
  cpu->generateCylinders(scene, 2'000'000);
  for (const Mode& mode : kModes) {
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
  auto cuda = createBackend("cuda");
  cuda->generateCylinders(makeCylinderScene(12), 100'000);
  const ViewTransform view = test::makeView(Camera{}, 320, 200);
  test::renderToImage(*cuda, view, {});
  for (const StageTiming& stage : cuda->lastTimings()) {
    EXPECT_TRUE(stage.stage == "clear" || stage.stage == "cull" || stage.stage == "raster" ||
                stage.stage == "resolve")
        << stage.stage;
  }
  // EDL runs the quality pipeline: one-pixel points through the compact stages, then "shade".
  RenderSettings edl;
  edl.quality.edl = true;
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
