// The CUDA backend against the CPU oracle. Without a usable CUDA device these tests are skipped
// (with the reason), never passed.
#include <cstring>
#include <span>

#include "pcv/core/error.hpp"
#include "pcv/cuda/device_buffer.hpp"
#include "clip_cases.hpp"
#include "pcv/demo/cylinder_producer.hpp"
#include "pcv/demo/cylinder_viewpoints.hpp"
#include "test_support.hpp"

namespace pcv {
namespace {

constexpr uint64_t kPoints = 2'000'000;
/// Small layout slices (37 batches, 378 880 points), so the 2 M points take six slices and the
/// slicing is compared too.
constexpr RendererOptions kSlicedLayout{.layoutSliceBatches = 37};

const test::ImageSizeCase kSizes[] = {{1280, 720}, {333, 217}};

class CudaVsCpu : public ::testing::Test {
 protected:
  void SetUp() override {
    PCV_REQUIRE_CUDA();
    cuda_ = createRenderer("cuda", kSlicedLayout);
    cpu_ = createRenderer("cpu", kSlicedLayout);
    const CylinderProducer points(makeCylinderSet(11), kPoints);
    cudaSet_ = cuda_->addSet(points);
    cpuSet_ = cpu_->addSet(points);
  }
  std::unique_ptr<Renderer> cuda_, cpu_;
  PointSetId cudaSet_ = 0, cpuSet_ = 0;
};

TEST_F(CudaVsCpu, GeneratorsAndLayoutsMakeBitIdenticalPoints) {
  const std::vector<Point> gpu = cuda_->downloadPoints(cudaSet_);
  const std::vector<Point> cpu = cpu_->downloadPoints(cpuSet_);
  ASSERT_EQ(gpu.size(), cpu.size());
  uint64_t different = 0;
  for (size_t i = 0; i < gpu.size(); ++i)
    different += std::memcmp(&gpu[i], &cpu[i], sizeof(Point)) != 0;
  EXPECT_EQ(different, 0u);
}

TEST_F(CudaVsCpu, ExactMethodsArePixelIdenticalAtFourViewsAndTwoSizes) {
  // Every deterministic CUDA method against the CPU method it must equal.
  for (const RasterMethod method : cuda_->methods()) {
    if (method == RasterMethod::Seed) continue;  // races on equal depths: see the next test
    RenderSettings settings;
    settings.method = method;
    settings.background = packRgba(7, 8, 9);
    RenderSettings reference = settings;
    reference.method =
        method == RasterMethod::Compact ? RasterMethod::Compact : RasterMethod::Packed;
    for (const CylinderViewpoint& viewpoint : kCylinderViewpoints) {
      for (const auto& size : kSizes) {
        const ViewTransform view = test::makeView(viewpoint.camera(), size.width, size.height);
        const Image cpu = test::renderToImage(*cpu_, view, reference);
        // Twice on the GPU: the compact method's first frame clears, later ones do not.
        for (int frame = 0; frame < 2; ++frame) {
          const Image gpu = test::renderToImage(*cuda_, view, settings);
          const uint64_t lit = test::countLitPixels(cpu, settings.background);
          const uint64_t different = test::countDifferentPixels(gpu, cpu);
          std::printf("[ %-10s ] %-12s %4dx%-4d frame %d: lit %7llu, different %llu\n",
                      methodName(method), viewpoint.name, size.width, size.height, frame,
                      (unsigned long long)lit, (unsigned long long)different);
          EXPECT_EQ(test::countLitPixels(gpu, test::kPoisonPixel), gpu.pixels.size());
          EXPECT_GT(lit, 100u) << viewpoint.name;
          EXPECT_EQ(different, 0u) << methodName(method) << " " << viewpoint.name;
        }
      }
    }
  }
}


TEST_F(CudaVsCpu, ClippedFramesArePixelIdenticalWithAndWithoutQualityModes) {
  for (const auto& [name, clip] : test::clipCases()) {
    for (int pointSize : {1, 3}) {
      RenderSettings settings;
      settings.clip = clip;
      settings.quality.pointSizePx = pointSize;
      settings.background = packRgba(7, 8, 9);
      for (const CylinderViewpoint& viewpoint : kCylinderViewpoints) {
        const ViewTransform view = test::makeView(viewpoint.camera(), 640, 360);
        const Image cpu = test::renderToImage(*cpu_, view, settings);
        // Twice on the GPU: the compact method's first frame clears, later ones do not.
        for (int frame = 0; frame < 2; ++frame) {
          const Image gpu = test::renderToImage(*cuda_, view, settings);
          EXPECT_EQ(test::countDifferentPixels(gpu, cpu), 0u)
              << name << ", " << pointSize << " px at " << viewpoint.name;
        }
        if (std::string(viewpoint.name) == "overview") {
          std::printf("[ clip ] %-22s %d px: lit %llu\n", name, pointSize,
                      (unsigned long long)test::countLitPixels(cpu, settings.background));
          EXPECT_GT(test::countLitPixels(cpu, settings.background), 100u) << name;
        }
      }
    }
  }
}


TEST_F(CudaVsCpu, PolygonClippedFramesArePixelIdentical) {
  for (const auto& [name, clip] : test::polygonCases()) {
    for (int pointSize : {1, 3}) {
      RenderSettings settings;
      settings.clip = clip;
      settings.quality.pointSizePx = pointSize;
      settings.background = packRgba(7, 8, 9);
      for (const CylinderViewpoint& viewpoint : kCylinderViewpoints) {
        const ViewTransform view = test::makeView(viewpoint.camera(), 640, 360);
        const Image cpu = test::renderToImage(*cpu_, view, settings);
        for (int frame = 0; frame < 2; ++frame) {
          const Image gpu = test::renderToImage(*cuda_, view, settings);
          EXPECT_EQ(test::countDifferentPixels(gpu, cpu), 0u)
              << name << ", " << pointSize << " px at " << viewpoint.name;
        }
        if (std::string(viewpoint.name) == "overview") {
          std::printf("[ polygon ] %-22s %d px: lit %llu\n", name, pointSize,
                      (unsigned long long)test::countLitPixels(cpu, settings.background));
          EXPECT_GT(test::countLitPixels(cpu, settings.background), 100u) << name;
        }
      }
    }
  }
}

TEST_F(CudaVsCpu, PolygonClippedPicksFindTheSamePoints) {
  RenderSettings settings;
  settings.clip = test::polygonCases()[0].second;
  uint64_t found = 0;
  for (const CylinderViewpoint& viewpoint : kCylinderViewpoints) {
    const ViewTransform view = test::makeView(viewpoint.camera(), 640, 360);
    for (int y = 10; y < 360; y += 40) {
      for (int x = 10; x < 640; x += 40) {
        const std::optional<PickedPoint> gpu = cuda_->pick(view, settings, x, y);
        const std::optional<PickedPoint> cpu = cpu_->pick(view, settings, x, y);
        ASSERT_EQ(gpu.has_value(), cpu.has_value()) << viewpoint.name << " " << x << "," << y;
        if (!cpu) continue;
        ++found;
        EXPECT_EQ(gpu->location.index, cpu->location.index);
        EXPECT_EQ(gpu->viewDepth, cpu->viewDepth);
      }
    }
  }
  EXPECT_GT(found, 20u);
}

TEST_F(CudaVsCpu, PicksFindTheSamePointsOnBothBackends) {
  RenderSettings wide;
  wide.quality.pointSizePx = 3;
  RenderSettings clipped;
  clipped.clip = test::clipCases()[3].second;
  uint64_t found = 0;
  for (const RenderSettings& settings : {RenderSettings{}, wide, clipped}) {
    for (const CylinderViewpoint& viewpoint : kCylinderViewpoints) {
      const ViewTransform view = test::makeView(viewpoint.camera(), 640, 360);
      for (int y = 10; y < 360; y += 50) {
        for (int x = 10; x < 640; x += 50) {
          const std::optional<PickedPoint> gpu = cuda_->pick(view, settings, x, y);
          const std::optional<PickedPoint> cpu = cpu_->pick(view, settings, x, y);
          ASSERT_EQ(gpu.has_value(), cpu.has_value()) << viewpoint.name << " " << x << "," << y;
          if (!cpu) continue;
          ++found;
          EXPECT_EQ(gpu->location.index, cpu->location.index);
          EXPECT_EQ(gpu->viewDepth, cpu->viewDepth);
          EXPECT_EQ(gpu->pixelX, cpu->pixelX);
          EXPECT_EQ(gpu->pixelY, cpu->pixelY);
          for (int axis = 0; axis < 3; ++axis) EXPECT_EQ(gpu->position[axis], cpu->position[axis]);
        }
      }
    }
  }
  EXPECT_GT(found, 50u);
}

TEST_F(CudaVsCpu, SourceOrderIsTheSameOnBothBackends) {
  const CylinderProducer points(makeCylinderSet(5), 500'000);
  const PointSetId gpuSet = cuda_->addSet(points, {.keepSourceOrder = true});
  const PointSetId cpuSet = cpu_->addSet(points, {.keepSourceOrder = true});
  for (uint64_t i = 0; i < 500'000; i += 997) {
    EXPECT_EQ(cuda_->sourceIndex({gpuSet, i}), cpu_->sourceIndex({cpuSet, i})) << i;
  }
}

TEST_F(CudaVsCpu, SeedMethodDiffersOnlyWhereEqualDepthsRace) {
  RenderSettings seed;
  seed.method = RasterMethod::Seed;
  // Not the far view: there the seed's depth (NDC z, near 1 for far points) rounds thousands of
  // points of a pixel to the same value, and which of them wins is a race by design.
  for (const CylinderViewpoint& viewpoint : std::span(kCylinderViewpoints).first(3)) {
    for (const auto& size : kSizes) {
      const ViewTransform view = test::makeView(viewpoint.camera(), size.width, size.height);
      const Image gpu = test::renderToImage(*cuda_, view, seed);
      const Image cpu = test::renderToImage(*cpu_, view, seed);
      const uint64_t lit = test::countLitPixels(cpu, kOpaqueBlack);
      const uint64_t different = test::countDifferentPixels(gpu, cpu);
      std::printf("[ seed   ] %-12s %4dx%-4d lit %7llu, different %llu (races on equal depth)\n",
                  viewpoint.name, size.width, size.height, (unsigned long long)lit,
                  (unsigned long long)different);
      EXPECT_EQ(test::countLitPixels(gpu, kOpaqueBlack), lit);
      // The CPU keeps the lowest index among equal depths, the GPU whichever thread writes last:
      // only pixels with two points at exactly the same float depth may differ.
      EXPECT_LE(different, lit / 50 + 10) << viewpoint.name;
    }
  }
}

TEST_F(CudaVsCpu, DeviceTargetMatchesHostTarget) {
  const ViewTransform view = test::makeView(kCylinderViewpoints[0].camera(), 200, 100);
  const Image host = test::renderToImage(*cuda_, view, {});
  DeviceBuffer<uint32_t> device(200 * 100);
  CUDA_CHECK(cudaMemset(device.data(), 0x5a, device.bytes()));
  cuda_->render(view, {}, RenderTarget{device.data(), 200, 100, MemorySpace::Device});
  Image copy(200, 100);
  CUDA_CHECK(cudaStreamSynchronize(static_cast<cudaStream_t>(cuda_->cudaStream())));
  CUDA_CHECK(cudaMemcpy(copy.pixels.data(), device.data(), device.bytes(), cudaMemcpyDeviceToHost));
  EXPECT_EQ(test::countDifferentPixels(host, copy), 0u);
}

TEST_F(CudaVsCpu, SetsThatComeAndGoDrawTheSameOnBothBackends) {
  // Sets added, one removed (its slots reused by the next), and frames of every set and of a
  // subset: payloads name pool slots, so both backends must hand out the same ones.
  std::vector<PointSetId> cudaSets, cpuSets;
  for (uint64_t seed : {21, 22, 23}) {
    const CylinderProducer points(makeCylinderSet(seed), 150'000 + 1000 * seed);
    cudaSets.push_back(cuda_->addSet(points));
    cpuSets.push_back(cpu_->addSet(points));
  }
  cuda_->removeSet(cudaSets[1]);
  cpu_->removeSet(cpuSets[1]);
  const CylinderProducer late(makeCylinderSet(24), 90'000);
  cudaSets[1] = cuda_->addSet(late);
  cpuSets[1] = cpu_->addSet(late);
  const std::vector<PointSetId> cudaSubset = {cudaSets[2], cudaSets[1]};
  const std::vector<PointSetId> cpuSubset = {cpuSets[2], cpuSets[1]};
  for (const RasterMethod method : cuda_->methods()) {
    if (method == RasterMethod::Seed) continue;
    RenderSettings settings;
    settings.method = method;
    RenderSettings reference = settings;
    reference.method =
        method == RasterMethod::Compact ? RasterMethod::Compact : RasterMethod::Packed;
    for (const CylinderViewpoint& viewpoint : kCylinderViewpoints) {
      const ViewTransform view = test::makeView(viewpoint.camera(), 640, 360);
      EXPECT_EQ(test::countDifferentPixels(test::renderToImage(*cuda_, view, settings),
                                           test::renderToImage(*cpu_, view, reference)),
                0u)
          << methodName(method) << " " << viewpoint.name << ", every set";
      Image gpu(640, 360, test::kPoisonPixel), cpu(640, 360, test::kPoisonPixel);
      cuda_->render(cudaSubset, view, settings, {gpu.pixels.data(), 640, 360, MemorySpace::Host});
      cpu_->render(cpuSubset, view, reference, {cpu.pixels.data(), 640, 360, MemorySpace::Host});
      EXPECT_EQ(test::countDifferentPixels(gpu, cpu), 0u)
          << methodName(method) << " " << viewpoint.name << ", two sets";
      EXPECT_GT(test::countLitPixels(cpu, kOpaqueBlack), 100u);
    }
  }
}

TEST_F(CudaVsCpu, PointsBeyondGpuMemoryAreAClearError) {
  size_t freeBytes = 0, totalBytes = 0;
  CUDA_CHECK(cudaMemGetInfo(&freeBytes, &totalBytes));
  // 24 bytes per point resident: one point more than the free memory holds.
  const uint64_t count = freeBytes / 24 + 1;
  if (count > kMaxPointCount - kPoints) {
    GTEST_SKIP() << "this GPU holds every point a renderer takes ("
                 << formatBytes(double(freeBytes)) << " free)";
  }
  EXPECT_THROW(cuda_->addSet(CylinderProducer(makeCylinderSet(1), count)), OutOfMemoryError);
  cuda_->addSet(CylinderProducer(makeCylinderSet(1), 1000));  // still usable
  EXPECT_EQ(cuda_->pointCount(), kPoints + 1000u);
}

TEST_F(CudaVsCpu, MorePointsThanPayloadsIsAnInputError) {
  EXPECT_THROW(cuda_->addSet(CylinderProducer(makeCylinderSet(1), kMaxPointCount)), InputError);
  cuda_->addSet(CylinderProducer(makeCylinderSet(1), 1000));  // still usable
  EXPECT_EQ(cuda_->pointCount(), kPoints + 1000u);
}

}  // namespace
}  // namespace pcv
