// Orthographic views on the CUDA backend against the CPU oracle: plan, front and side views of
// the cylinders, every exact method, wide and world-sized points, clipping and picking, pixel for
// pixel. Skipped (with the reason) without a usable CUDA device.
#include "pcv/core/camera_framing.hpp"
#include "pcv/demo/cylinder_producer.hpp"
#include "test_support.hpp"

namespace pcv {
namespace {

constexpr uint64_t kPoints = 2'000'000;

class OrthoCudaVsCpu : public ::testing::Test {
 protected:
  void SetUp() override {
    PCV_REQUIRE_CUDA();
    cuda_ = createRenderer("cuda");
    cpu_ = createRenderer("cpu");
    const CylinderProducer points(makeCylinderSet(11), kPoints);
    cuda_->addSet(points);
    cpu_->addSet(points);
  }
  /// The three views fitted to the cylinders, and a plan view zoomed in on part of them.
  std::vector<std::pair<std::string, Camera>> cameras() const {
    // The cylinders: centres in [-1, 1]^3, half heights up to 1.
    const Box3d bounds{glm::dvec3(-2.0), glm::dvec3(2.0)};
    std::vector<std::pair<std::string, Camera>> list;
    for (const OrthoView view : {OrthoView::Plan, OrthoView::Front, OrthoView::Side}) {
      list.emplace_back(orthoViewName(view), frameOrtho(view, bounds, 16.0f / 9.0f));
    }
    list.emplace_back("plan zoomed", frameOrtho(OrthoView::Plan, bounds, 16.0f / 9.0f, 0.7));
    return list;
  }
  std::unique_ptr<Renderer> cuda_, cpu_;
};

TEST_F(OrthoCudaVsCpu, ExactMethodsArePixelIdentical) {
  for (const RasterMethod method : cuda_->methods()) {
    if (method == RasterMethod::Seed) continue;  // races on equal depths, as in perspective
    RenderSettings settings;
    settings.method = method;
    settings.background = packRgba(7, 8, 9);
    RenderSettings reference = settings;
    reference.method =
        method == RasterMethod::Compact ? RasterMethod::Compact : RasterMethod::Packed;
    for (const auto& [name, camera] : cameras()) {
      const ViewTransform view = test::makeView(camera, 640, 360);
      const Image cpu = test::renderToImage(*cpu_, view, reference);
      for (int frame = 0; frame < 2; ++frame) {
        const Image gpu = test::renderToImage(*cuda_, view, settings);
        EXPECT_GT(test::countLitPixels(cpu, settings.background), 100u) << name;
        EXPECT_EQ(test::countDifferentPixels(gpu, cpu), 0u) << methodName(method) << " " << name;
      }
    }
  }
}

TEST_F(OrthoCudaVsCpu, QualityModesAndClippingArePixelIdentical) {
  RenderSettings wide;
  wide.quality.pointSizePx = 3;
  RenderSettings world;
  world.quality.sizeMode = PointSizeMode::World;
  world.quality.worldSize = 0.01f;
  RenderSettings clipped;
  clipped.clip.box = ClipBox{{-0.6, -0.5, -0.4}, {0.5, 0.6, 0.7}};
  RenderSettings edl;
  edl.quality.edl = EdlMode::On;
  edl.quality.highQuality = true;
  for (const RenderSettings& settings : {wide, world, clipped, edl}) {
    for (const auto& [name, camera] : cameras()) {
      const ViewTransform view = test::makeView(camera, 640, 360);
      const Image cpu = test::renderToImage(*cpu_, view, settings);
      const Image gpu = test::renderToImage(*cuda_, view, settings);
      EXPECT_EQ(test::countDifferentPixels(gpu, cpu), 0u) << name;
    }
  }
}

TEST_F(OrthoCudaVsCpu, PicksFindTheSamePoints) {
  uint64_t found = 0;
  for (const auto& [name, camera] : cameras()) {
    const ViewTransform view = test::makeView(camera, 640, 360);
    for (int y = 10; y < 360; y += 50) {
      for (int x = 10; x < 640; x += 50) {
        const std::optional<PickedPoint> gpu = cuda_->pick(view, {}, x, y);
        const std::optional<PickedPoint> cpu = cpu_->pick(view, {}, x, y);
        ASSERT_EQ(gpu.has_value(), cpu.has_value()) << name << " " << x << "," << y;
        if (!cpu) continue;
        ++found;
        EXPECT_EQ(gpu->location.index, cpu->location.index);
        EXPECT_EQ(gpu->viewDepth, cpu->viewDepth);
      }
    }
  }
  EXPECT_GT(found, 20u);
}

}  // namespace
}  // namespace pcv
