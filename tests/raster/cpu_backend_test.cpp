#include <cstdlib>

#include "pcv/core/error.hpp"
#include "pcv/core/host_memory.hpp"
#include "pcv/demo/cylinder_producer.hpp"
#include "test_support.hpp"

namespace pcv {
namespace {

TEST(CpuBackend, EqualDepthKeepsTheLowestIndex) {
  auto renderer = createRenderer("cpu");
  // Five points at the same place, different colours: index 0 must win whatever the order.
  std::vector<Point> points;
  for (uint32_t i = 0; i < 5; ++i)
    points.push_back({-2.0f, 0.0f, 0.0f, packRgba(10 * i + 1, 0, 0)});
  std::reverse(points.begin(), points.end());  // now index 0 holds colour 41
  renderer->addSet(points);
  Camera camera;
  const Image image = test::renderToImage(*renderer, test::makeView(camera, 31, 31), {});
  EXPECT_EQ(image.at(15, 15), packRgba(41, 0, 0));
  EXPECT_EQ(test::countLitPixels(image, kOpaqueBlack), 1u);
}

TEST(CpuBackend, CloserPointWinsRegardlessOfOrder) {
  auto renderer = createRenderer("cpu");
  const std::vector<Point> points = {{-1.0f, 0.0f, 0.0f, packRgba(0, 0, 200)},
                                     {-2.0f, 0.0f, 0.0f, packRgba(200, 0, 0)},
                                     {0.0f, 0.0f, 0.0f, packRgba(0, 200, 0)}};
  renderer->addSet(points);
  const Image image = test::renderToImage(*renderer, test::makeView(Camera{}, 31, 31), {});
  EXPECT_EQ(image.at(15, 15), packRgba(200, 0, 0));
}

TEST(CpuBackend, NoPointsGiveTheBackgroundEverywhere) {
  auto renderer = createRenderer("cpu");
  RenderSettings settings;
  settings.background = packRgba(1, 2, 3);
  const Image image = test::renderToImage(*renderer, test::makeView(Camera{}, 40, 30), settings);
  EXPECT_EQ(test::countLitPixels(image, settings.background), 0u);
}

TEST(CpuBackend, SeedSceneCoverageIsPlausible) {
  auto renderer = createRenderer("cpu");
  renderer->addSet(CylinderProducer(makeCylinderSet(1), 1'000'000));
  RenderSettings packed;
  packed.method = RasterMethod::Packed;
  const Image image = test::renderToImage(*renderer, test::makeView(Camera{}, 640, 360), packed);
  const uint64_t lit = test::countLitPixels(image, kOpaqueBlack);
  EXPECT_EQ(test::countLitPixels(image, test::kPoisonPixel), image.pixels.size());
  // Ten cylinders seen from 3 units away cover a sizeable part of the view, but not all of it.
  EXPECT_GT(lit, image.pixels.size() / 20);
  EXPECT_LT(lit, image.pixels.size() / 2);
}

TEST(CpuBackend, SameImageWithAnyThreadCount) {
  auto renderer = createRenderer("cpu");
  renderer->addSet(CylinderProducer(makeCylinderSet(9), 300'000));
  const ViewTransform view = test::makeView(Camera{}, 320, 200);
  setenv("PCV_THREADS", "1", 1);
  const Image single = test::renderToImage(*renderer, view, {});
  setenv("PCV_THREADS", "7", 1);
  const Image many = test::renderToImage(*renderer, view, {});
  unsetenv("PCV_THREADS");
  EXPECT_EQ(test::countDifferentPixels(single, many), 0u);
  EXPECT_GT(test::countLitPixels(single, kOpaqueBlack), 1000u);
}

TEST(CpuBackend, SeedMethodAgreesWithPackedAlmostEverywhere) {
  auto renderer = createRenderer("cpu");
  renderer->addSet(CylinderProducer(makeCylinderSet(2), 500'000));
  const ViewTransform view = test::makeView(Camera{}, 320, 200);
  RenderSettings seed, packed;
  seed.method = RasterMethod::Seed;
  packed.method = RasterMethod::Packed;
  const Image packedImage = test::renderToImage(*renderer, view, packed);
  const Image seedImage = test::renderToImage(*renderer, view, seed);
  const uint64_t lit = test::countLitPixels(packedImage, kOpaqueBlack);
  EXPECT_EQ(test::countLitPixels(seedImage, kOpaqueBlack), lit);
  // Same coverage; the colours differ where the seed's float NDC depth (resolution ~6e-8 near 1,
  // i.e. ~2e-5 units of distance at 3 units) ties points that the view distance tells apart.
  const uint64_t different = test::countDifferentPixels(packedImage, seedImage);
  std::printf("seed vs packed: %llu of %llu lit pixels differ\n", (unsigned long long)different,
              (unsigned long long)lit);
  EXPECT_LT(different, lit / 3);
}

TEST(CpuBackend, UnknownMethodListsTheKnownOnes) {
  auto renderer = createRenderer("cpu");
  RenderSettings settings;
  settings.method = RasterMethod::EarlyZ;  // the cpu backend has none
  try {
    test::renderToImage(*renderer, test::makeView(Camera{}, 8, 8), settings);
    FAIL() << "expected an InputError";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("known methods: compact, packed, seed"),
              std::string::npos)
        << error.what();
  }
}

TEST(BackendFactory, UnknownBackendListsTheKnownOnes) {
  try {
    createRenderer("metal");
    FAIL() << "expected an InputError";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("auto, cuda, vulkan, cpu"), std::string::npos);
  }
}

TEST(BackendFactory, CudaWithoutDeviceIsAClearError) {
  std::string reason;
  if (cudaAvailable(&reason)) GTEST_SKIP() << "a CUDA device is present";
  EXPECT_FALSE(reason.empty());
  EXPECT_THROW(createRenderer("cuda"), UnavailableError);
  EXPECT_EQ(createRenderer("auto")->backendName(), "cpu");
}

TEST(CpuBackend, PointsBeyondHostMemoryAreAClearErrorBeforeAnyAllocation) {
  // 24 bytes per point resident (compact layout and the 16-byte points): one point more than
  // the memory available holds.
  const uint64_t count = availableHostMemoryBytes() / 24 * 2;  // twice: other tests free memory
  if (count > kMaxPointCount) GTEST_SKIP() << "this machine holds every point a renderer takes";
  auto renderer = createRenderer("cpu");
  try {
    renderer->addSet(CylinderProducer(makeCylinderSet(1), count));
    FAIL() << "expected an OutOfMemoryError";
  } catch (const OutOfMemoryError& error) {
    // The pool's slots come in multiples of 16 points.
    const uint64_t slots = (count + 15) / 16 * 16;
    EXPECT_NE(std::string(error.what()).find(std::to_string(slots) + " x 24 bytes"),
              std::string::npos)
        << error.what();
  }
  renderer->addSet(CylinderProducer(makeCylinderSet(1), 100));  // still usable
  EXPECT_EQ(renderer->pointCount(), 100u);
}

TEST(CpuBackend, MorePointsThanPayloadsIsAnInputError) {
  auto renderer = createRenderer("cpu");
  EXPECT_THROW(renderer->addSet(CylinderProducer(makeCylinderSet(1), kMaxPointCount + 1)),
               InputError);
  renderer->addSet(CylinderProducer(makeCylinderSet(1), 100));
  EXPECT_THROW(renderer->addSet(CylinderProducer(makeCylinderSet(1), kMaxPointCount - 99)),
               InputError);
  EXPECT_EQ(renderer->pointCount(), 100u);
}

}  // namespace
}  // namespace pcv
