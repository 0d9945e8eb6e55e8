// The Vulkan backend against the CPU oracle, pixel for pixel and pick for pick: the compact
// method, every quality mode, clip boxes, slabs and polygons, filters, orthographic views and
// sets that come and go. Runs on any Vulkan device, lavapipe included (so here and in CI, under
// the validation layer: PCV_VULKAN_VALIDATION); skipped with the reason where there is none.
#include <cstdio>
#include <cstring>

#include <unistd.h>

#include "clip_cases.hpp"
#include "pcv/core/camera_framing.hpp"
#include "pcv/core/error.hpp"
#include "pcv/core/point_filter.hpp"
#include "pcv/raster/quality_presets.hpp"
#include "pcv/raster/vulkan_devices.hpp"
#include "pcv/demo/cylinder_producer.hpp"
#include "pcv/demo/cylinder_viewpoints.hpp"
#include "synthetic_filter_fields.hpp"
#include "test_support.hpp"
#include "vulkan/sliced_array.hpp"
#include "vulkan/vulkan_backend.hpp"
#include "vulkan/vulkan_context.hpp"
#include "vulkan/vulkan_transfer.hpp"

namespace pcv {
namespace {

constexpr uint64_t kPoints = 400'000;
/// Small layout slices (11 batches, 112 640 points), so the points take four slices.
constexpr RendererOptions kSlicedLayout{.layoutSliceBatches = 11};

const test::ImageSizeCase kSizes[] = {{640, 360}, {333, 217}};

class VulkanVsCpu : public ::testing::Test {
 protected:
  void SetUp() override {
    PCV_REQUIRE_VULKAN();
    vulkan_ = createRenderer("vulkan", kSlicedLayout);
    cpu_ = createRenderer("cpu", kSlicedLayout);
    const CylinderProducer points(makeCylinderSet(11), kPoints);
    vulkanSet_ = vulkan_->addSet(points, {.keepSourceOrder = true});
    cpuSet_ = cpu_->addSet(points, {.keepSourceOrder = true});
  }
  /// Frames of both backends differ in no pixel (twice on Vulkan: later frames reuse buffers);
  /// returns the pixels the CPU lit.
  uint64_t expectSameFrame(const ViewTransform& view, const RenderSettings& settings,
                           const std::string& what) {
    const Image cpu = test::renderToImage(*cpu_, view, settings);
    for (int frame = 0; frame < 2; ++frame) {
      const Image gpu = test::renderToImage(*vulkan_, view, settings);
      EXPECT_EQ(test::countLitPixels(gpu, test::kPoisonPixel), gpu.pixels.size()) << what;
      EXPECT_EQ(test::countDifferentPixels(gpu, cpu), 0u) << what << ", frame " << frame;
    }
    return test::countLitPixels(cpu, settings.background);
  }
  std::unique_ptr<Renderer> vulkan_, cpu_;
  PointSetId vulkanSet_ = 0, cpuSet_ = 0;
};

TEST_F(VulkanVsCpu, NamesItsBackendAndDevice) {
  EXPECT_EQ(vulkan_->backendName(), "vulkan");
  EXPECT_NE(vulkan_->deviceDescription().find("Vulkan"), std::string::npos);
  EXPECT_EQ(vulkan_->methods(), std::vector<RasterMethod>{RasterMethod::Compact});
}

TEST_F(VulkanVsCpu, LayoutsAreTheSame) {
  const std::vector<Point> gpu = vulkan_->downloadPoints(vulkanSet_);
  const std::vector<Point> cpu = cpu_->downloadPoints(cpuSet_);
  ASSERT_EQ(gpu.size(), cpu.size());
  uint64_t different = 0;
  for (size_t i = 0; i < gpu.size(); ++i)
    different += std::memcmp(&gpu[i], &cpu[i], sizeof(Point)) != 0;
  EXPECT_EQ(different, 0u);
  for (uint64_t i = 0; i < kPoints; i += 4999)
    EXPECT_EQ(vulkan_->sourceIndex({vulkanSet_, i}), cpu_->sourceIndex({cpuSet_, i})) << i;
}

TEST_F(VulkanVsCpu, CompactFramesArePixelIdenticalAtFourViewsAndTwoSizes) {
  RenderSettings settings;
  settings.background = packRgba(7, 8, 9);
  for (const CylinderViewpoint& viewpoint : kCylinderViewpoints) {
    for (const auto& size : kSizes) {
      const ViewTransform view = test::makeView(viewpoint.camera(), size.width, size.height);
      EXPECT_GT(expectSameFrame(view, settings, viewpoint.name), 100u) << viewpoint.name;
    }
  }
}

TEST_F(VulkanVsCpu, AFrameAfterAPickOrAQualityFrameStartsFromAClearFramebuffer) {
  // The compact resolve clears the pixels it reads, so the next compact frame skips its clear;
  // a pick and the quality pipeline leave their pixels drawn, and the frame after them clears.
  RenderSettings compact;
  compact.background = packRgba(7, 8, 9);
  RenderSettings wide = compact;
  wide.quality.pointSizePx = 3;
  const ViewTransform a = test::makeView(kCylinderViewpoints[0].camera(), 640, 360);
  const ViewTransform b = test::makeView(kCylinderViewpoints[1].camera(), 640, 360);
  expectSameFrame(a, compact, "compact");
  ASSERT_TRUE(vulkan_->pick(a, compact, 320, 180, 40).has_value());
  expectSameFrame(b, compact, "compact after a pick of another view");
  expectSameFrame(a, wide, "quality");
  expectSameFrame(b, compact, "compact after a quality frame of another view");
}

TEST_F(VulkanVsCpu, EveryQualityModeIsPixelIdentical) {
  for (const QualityPreset& mode : qualityPresets()) {
    RenderSettings settings;
    settings.background = packRgba(7, 8, 9);
    mode.apply(settings.quality);
    for (const CylinderViewpoint& viewpoint : kCylinderViewpoints) {
      const ViewTransform view = test::makeView(viewpoint.camera(), 333, 217);
      expectSameFrame(view, settings, std::string(mode.name) + " at " + viewpoint.name);
    }
  }
  // Every pass at once, and world-sized round points.
  RenderSettings all;
  all.quality.pointSizePx = 3;
  all.quality.shape = PointShape::Round;
  all.quality.fillRadiusPx = 2;
  all.quality.highQuality = true;
  all.quality.edl = EdlMode::On;
  all.quality.backgroundGradient = true;
  RenderSettings world;
  world.quality.sizeMode = PointSizeMode::World;
  world.quality.worldSize = 0.01f;
  world.quality.maxPointSizePx = 9;
  for (const CylinderViewpoint& viewpoint : kCylinderViewpoints) {
    const ViewTransform view = test::makeView(viewpoint.camera(), 640, 360);
    expectSameFrame(view, all, std::string("every pass at ") + viewpoint.name);
    expectSameFrame(view, world, std::string("world size at ") + viewpoint.name);
  }
}

TEST_F(VulkanVsCpu, ClippedFramesArePixelIdentical) {
  auto cases = test::clipCases();
  for (const auto& polygon : test::polygonCases()) cases.push_back(polygon);
  for (const auto& [name, clip] : cases) {
    for (int pointSize : {1, 3}) {
      RenderSettings settings;
      settings.clip = clip;
      settings.quality.pointSizePx = pointSize;
      settings.background = packRgba(7, 8, 9);
      uint64_t lit = 0;
      for (const CylinderViewpoint& viewpoint : kCylinderViewpoints) {
        lit += expectSameFrame(test::makeView(viewpoint.camera(), 640, 360), settings,
                               std::string(name) + " at " + viewpoint.name);
      }
      EXPECT_GT(lit, 100u) << name;
    }
  }
}

FilterFields fieldsOf(uint64_t i) {
  return test::syntheticFilterFields(i, kPoints);
}

TEST_F(VulkanVsCpu, FilteredFramesArePixelIdentical) {
  vulkan_->setFilterData(vulkanSet_, fieldsOf, "intensity");
  cpu_->setFilterData(cpuSet_, fieldsOf, "intensity");
  for (const PointFilter& filter : test::comparisonFilters()) {
    uint64_t changed = 0;  // pixels the filter changes: the test is not vacuous
    for (const CylinderViewpoint& viewpoint : kCylinderViewpoints) {
      const ViewTransform view = test::makeView(viewpoint.camera(), 640, 360);
      for (int pointSize : {1, 3}) {
        RenderSettings settings;
        settings.filter = filter;
        settings.quality.pointSizePx = pointSize;
        expectSameFrame(view, settings, viewpoint.name + filterArguments(filter));
        const Image filtered = test::renderToImage(*vulkan_, view, settings);
        settings.filter = {};
        changed += test::countDifferentPixels(filtered, test::renderToImage(*cpu_, view, settings));
      }
    }
    EXPECT_GT(changed, 1000u) << filterArguments(filter);
  }
}

TEST_F(VulkanVsCpu, OrthographicViewsArePixelIdentical) {
  const Box3d bounds{glm::dvec3(-2.0), glm::dvec3(2.0)};
  RenderSettings wide;
  wide.quality.pointSizePx = 3;
  RenderSettings clipped;
  clipped.clip = test::clipCases()[3].second;
  for (const OrthoView orthoView : {OrthoView::Plan, OrthoView::Front, OrthoView::Side}) {
    const ViewTransform view =
        test::makeView(frameOrtho(orthoView, bounds, 16.0f / 9.0f), 640, 360);
    for (const RenderSettings& settings : {RenderSettings{}, wide, clipped}) {
      EXPECT_GT(expectSameFrame(view, settings, orthoViewName(orthoView)), 100u);
    }
  }
}

TEST_F(VulkanVsCpu, PicksFindTheSamePoints) {
  RenderSettings wide;
  wide.quality.pointSizePx = 3;
  wide.quality.fillRadiusPx = 2;
  RenderSettings clipped;
  clipped.clip = test::polygonCases()[0].second;
  uint64_t found = 0;
  for (const RenderSettings& settings : {RenderSettings{}, wide, clipped}) {
    for (const CylinderViewpoint& viewpoint : kCylinderViewpoints) {
      const ViewTransform view = test::makeView(viewpoint.camera(), 640, 360);
      // A sparse grid: each pick runs a depth pass, slow on a software device.
      for (int y = 10; y < 360; y += 90) {
        for (int x = 10; x < 640; x += 110) {
          const std::optional<PickedPoint> gpu = vulkan_->pick(view, settings, x, y, 4);
          const std::optional<PickedPoint> cpu = cpu_->pick(view, settings, x, y, 4);
          ASSERT_EQ(gpu.has_value(), cpu.has_value()) << viewpoint.name << " " << x << "," << y;
          if (!cpu) continue;
          ++found;
          EXPECT_EQ(gpu->location.index, cpu->location.index);
          EXPECT_EQ(gpu->viewDepth, cpu->viewDepth);
          EXPECT_EQ(gpu->pixelX, cpu->pixelX);
          EXPECT_EQ(gpu->pixelY, cpu->pixelY);
        }
      }
    }
  }
  EXPECT_GT(found, 30u);
}

TEST_F(VulkanVsCpu, SetsThatComeAndGoDrawTheSame) {
  std::vector<PointSetId> gpuSets, cpuSets;
  for (uint64_t seed : {21, 22, 23}) {
    const CylinderProducer points(makeCylinderSet(seed), 50'000 + 1000 * seed);
    gpuSets.push_back(vulkan_->addSet(points));
    cpuSets.push_back(cpu_->addSet(points));
  }
  vulkan_->removeSet(gpuSets[1]);
  cpu_->removeSet(cpuSets[1]);
  const CylinderProducer late(makeCylinderSet(24), 30'000);
  gpuSets[1] = vulkan_->addSet(late);
  cpuSets[1] = cpu_->addSet(late);
  const std::vector<PointSetId> gpuSubset = {gpuSets[2], gpuSets[1]};
  const std::vector<PointSetId> cpuSubset = {cpuSets[2], cpuSets[1]};
  for (const CylinderViewpoint& viewpoint : kCylinderViewpoints) {
    const ViewTransform view = test::makeView(viewpoint.camera(), 640, 360);
    expectSameFrame(view, {}, std::string(viewpoint.name) + ", every set");
    Image gpu(640, 360, test::kPoisonPixel), cpu(640, 360, test::kPoisonPixel);
    vulkan_->render(gpuSubset, view, {}, {gpu.pixels.data(), 640, 360, MemorySpace::Host});
    cpu_->render(cpuSubset, view, {}, {cpu.pixels.data(), 640, 360, MemorySpace::Host});
    EXPECT_EQ(test::countDifferentPixels(gpu, cpu), 0u) << viewpoint.name << ", two sets";
    EXPECT_GT(test::countLitPixels(cpu, kOpaqueBlack), 100u);
  }
}

TEST_F(VulkanVsCpu, TopRowFirstTargetsAreFlippedOnTheDevice) {
  const ViewTransform view = test::makeView(kCylinderViewpoints[0].camera(), 320, 200);
  Image gpu(320, 200, test::kPoisonPixel), cpu(320, 200, test::kPoisonPixel);
  RenderTarget target{gpu.pixels.data(), 320, 200, MemorySpace::Host};
  target.topRowFirst = true;
  vulkan_->render(view, {}, target);
  target.rgba = cpu.pixels.data();
  cpu_->render(view, {}, target);
  EXPECT_EQ(test::countDifferentPixels(gpu, cpu), 0u);
}

TEST_F(VulkanVsCpu, StageTimingsNameTheStages) {
  const ViewTransform view = test::makeView(kCylinderViewpoints[0].camera(), 320, 200);
  test::renderToImage(*vulkan_, view, {});
  bool raster = false;
  for (const StageTiming& stage : vulkan_->lastTimings()) {
    raster |= stage.stage == "raster";
    EXPECT_GE(stage.milliseconds, 0.0) << stage.stage;
  }
  EXPECT_TRUE(raster);
}

TEST_F(VulkanVsCpu, FramesGoIntoExportedMemoryOfTheirSize) {
  const ViewTransform view = test::makeView(kCylinderViewpoints[0].camera(), 320, 200);
  const RenderTarget exported{nullptr, 320, 200, MemorySpace::Exported};
  // Nothing exported yet: the frame has nowhere to go.
  EXPECT_THROW(vulkan_->render(view, {}, exported), InputError);
  const ExportedImageMemory memory = vulkan_->exportImageMemory(320, 200);
  ASSERT_GE(memory.fd, 0);
  EXPECT_GE(memory.bytes, 320u * 200u * 4u);
  ::close(memory.fd);
  vulkan_->render(view, {}, exported);
  const ViewTransform larger = test::makeView(kCylinderViewpoints[0].camera(), 640, 400);
  EXPECT_THROW(vulkan_->render(larger, {}, {nullptr, 640, 400, MemorySpace::Exported}),
               InputError);
  EXPECT_THROW(cpu_->exportImageMemory(320, 200), UnavailableError);
}

TEST_F(VulkanVsCpu, PointsBeyondDeviceMemoryAreAClearErrorAndTheRendererGoesOn) {
  // 8 bytes a point at least: one point more than the free memory holds is refused before any
  // point is made, with the sizes.
  const uint64_t count = vulkan_->freeMemoryBytes() / 8 + 1;
  if (count > kMaxPointCount - kPoints) {
    GTEST_SKIP() << "this device holds every point a renderer takes";
  }
  EXPECT_THROW(vulkan_->addSet(CylinderProducer(makeCylinderSet(1), count)), OutOfMemoryError);
  vulkan_->addSet(CylinderProducer(makeCylinderSet(1), 1000));
  cpu_->addSet(CylinderProducer(makeCylinderSet(1), 1000));
  expectSameFrame(test::makeView(kCylinderViewpoints[0].camera(), 320, 200), {}, "after");
}

/// `vulkan`'s frame of `view` differs from `cpu`'s in no pixel; returns the CPU's image.
Image expectSameImage(Renderer& vulkan, Renderer& cpu, const ViewTransform& view,
                      const RenderSettings& settings, const std::string& what) {
  Image expected = test::renderToImage(cpu, view, settings);
  EXPECT_EQ(test::countDifferentPixels(test::renderToImage(vulkan, view, settings), expected), 0u)
      << what;
  return expected;
}

TEST(VulkanSlices, APoolCutIntoManySlicesDrawsAndPicksAsTheCpuBackend) {
  // The per-point arrays in slices of 2^16 points (the device's own are 2^27 or more): the
  // 400 000 points and a second set span seven slices, batches straddle their edges, and a
  // filter reads words and values across them.
  PCV_REQUIRE_VULKAN();
  Renderer vulkan(createVulkanBackend(PointStorage::CompactAndPoints, "", true, 1 << 16),
                  kSlicedLayout);
  std::unique_ptr<Renderer> cpu = createRenderer("cpu", kSlicedLayout);
  const CylinderProducer points(makeCylinderSet(11), kPoints);
  const PointSetId gpuSet = vulkan.addSet(points, {.keepSourceOrder = true});
  const PointSetId cpuSet = cpu->addSet(points, {.keepSourceOrder = true});
  vulkan.addSet(CylinderProducer(makeCylinderSet(3), 70'001));
  cpu->addSet(CylinderProducer(makeCylinderSet(3), 70'001));
  vulkan.setFilterData(gpuSet, fieldsOf, "intensity");
  cpu->setFilterData(cpuSet, fieldsOf, "intensity");
  EXPECT_EQ(vulkan.downloadPoints(gpuSet).size(), kPoints);
  RenderSettings filtered;
  filtered.filter.ranges = {{"intensity", 100.0, 2000.0}};
  filtered.filter.classes = parseClassList("1-6", "--classes");
  RenderSettings quality;
  quality.quality.pointSizePx = 3;
  quality.quality.edl = EdlMode::On;
  for (const RenderSettings& settings : {RenderSettings{}, filtered, quality}) {
    for (const CylinderViewpoint& viewpoint : kCylinderViewpoints) {
      const ViewTransform view = test::makeView(viewpoint.camera(), 640, 360);
      const Image expected = expectSameImage(vulkan, *cpu, view, settings, viewpoint.name);
      EXPECT_GT(test::countLitPixels(expected, kOpaqueBlack), 100u);
      const std::optional<PickedPoint> gpuPick = vulkan.pick(view, settings, 320, 180, 20);
      const std::optional<PickedPoint> cpuPick = cpu->pick(view, settings, 320, 180, 20);
      ASSERT_EQ(gpuPick.has_value(), cpuPick.has_value());
      if (cpuPick) {
        EXPECT_EQ(gpuPick->location.index, cpuPick->location.index);
      }
    }
  }
}

TEST(VulkanSlices, AReservedPoolTakesItsLaterSlicesAsSetsReachThem) {
  // A reservation of many slices of 2^16 points (as a stream makes when it opens): a slice's
  // memory is allocated when a set first reaches it; sets added one after the other reach
  // them, with filter data (zeros where a set has none), and draw as on the CPU.
  PCV_REQUIRE_VULKAN();
  Renderer vulkan(createVulkanBackend(PointStorage::Compact, "", true, 1 << 16), kSlicedLayout);
  std::unique_ptr<Renderer> cpu = createRenderer("cpu", kSlicedLayout);
  const uint64_t bytes = 24ull << 20;  // about a million points: over ten slices
  ReservedPool gpuPool = vulkan.reservePool(bytes);
  ReservedPool cpuPool = cpu->reservePool(bytes);
  ASSERT_GT(gpuPool.pointCapacity(), 10u << 16);
  for (uint64_t seed : {3u, 5u, 7u, 9u}) {
    const CylinderProducer points(makeCylinderSet(seed), 150'001);
    const std::optional<PointSetId> gpuSet = gpuPool.tryAddSet(points, {.keepSourceOrder = true});
    const std::optional<PointSetId> cpuSet = cpuPool.tryAddSet(points, {.keepSourceOrder = true});
    ASSERT_TRUE(gpuSet && cpuSet) << seed;
    vulkan.setFilterData(*gpuSet, fieldsOf, "intensity");
    cpu->setFilterData(*cpuSet, fieldsOf, "intensity");
  }
  RenderSettings filtered;
  filtered.filter.ranges = {{"intensity", 100.0, 2000.0}};
  for (const RenderSettings& settings : {RenderSettings{}, filtered}) {
    for (const CylinderViewpoint& viewpoint : kCylinderViewpoints) {
      const ViewTransform view = test::makeView(viewpoint.camera(), 320, 180);
      const Image expected = expectSameImage(vulkan, *cpu, view, settings, viewpoint.name);
      EXPECT_GT(test::countLitPixels(expected, kOpaqueBlack), 100u);
    }
  }
}

TEST(VulkanSlices, SetsOfOddSizesWithFilterDataGrowThePoolAsTheCpuBackends) {
  // Each set with filter data, added one after the other with odd point counts, in small slices.
  PCV_REQUIRE_VULKAN();
  Renderer vulkan(createVulkanBackend(PointStorage::Compact, "", true, 1 << 12), kSlicedLayout);
  std::unique_ptr<Renderer> cpu = createRenderer("cpu", kSlicedLayout);
  for (uint64_t count : {3'001u, 5'003u, 7'005u}) {
    const CylinderProducer points(makeCylinderSet(count), count);
    for (Renderer* renderer : {&vulkan, cpu.get()}) {
      const PointSetId set = renderer->addSet(points, {.keepSourceOrder = true});
      renderer->setFilterData(
          set, [count](uint64_t i) { return test::syntheticFilterFields(i, count); },
          "intensity");
    }
  }
  RenderSettings filtered;
  filtered.filter.classes = parseClassList("1-4,8", "--classes");
  filtered.filter.ranges = {{"intensity", 300.0, 3000.0}};
  for (const CylinderViewpoint& viewpoint : kCylinderViewpoints) {
    const ViewTransform view = test::makeView(viewpoint.camera(), 320, 200);
    for (const RenderSettings& settings : {RenderSettings{}, filtered}) {
      expectSameImage(vulkan, *cpu, view, settings, viewpoint.name);
    }
  }
}

TEST(VulkanSlices, TwoByteArraysGrowFromOddCountsInWholeWords) {
  // Filter words are 2 bytes: an array grown to an odd count and then further is filled and
  // copied in whole 4-byte words (the validation layer ends the test on a fill that is not).
  PCV_REQUIRE_VULKAN();
  vk::VulkanContext context("", true);
  vk::VulkanTransfer transfer(context);
  vk::SlicedArray words(context, 2, 16, "test words");
  const std::vector<uint16_t> first = {1, 2, 3, 4, 5, 6, 7};
  words.grow(7, 0u);
  words.upload(transfer, 0, first.data(), first.size());
  words.grow(13, 0u);
  words.grow(37, 0xabcdabcdu);  // three slices of 16
  std::vector<uint16_t> back(37);
  words.download(transfer, 0, back.data(), back.size());
  for (size_t i = 0; i < 7; ++i) EXPECT_EQ(back[i], first[i]) << i;
  for (size_t i = 7; i < 13; ++i) EXPECT_EQ(back[i], 0u) << i;
  for (size_t i = 14; i < 37; ++i) EXPECT_EQ(back[i], 0xabcdu) << i;
  EXPECT_EQ(words.addresses().size(), 3u);
}

TEST(VulkanSlices, ASlicesMemoryFollowsTheElementsReached) {
  // A slice of 64 MiB takes 32 MiB when its first element is written, all of it when an element
  // past that is, keeping what was written and the fill between; the next slice takes only its
  // planned bytes.
  PCV_REQUIRE_VULKAN();
  vk::VulkanContext context("", true);
  vk::VulkanTransfer transfer(context);
  const uint64_t perSlice = uint64_t(1) << 24;  // 4-byte elements: 64 MiB a slice
  vk::SlicedArray values(context, 4, perSlice, "test values");
  values.grow(perSlice + 100, 7u);
  EXPECT_EQ(values.allocatedBytes(), 0u);
  const std::vector<uint32_t> head = {11, 12, 13}, far = {21, 22}, next = {31};
  values.upload(transfer, 0, head.data(), head.size());
  EXPECT_EQ(values.allocatedBytes(), uint64_t(32) << 20);
  values.upload(transfer, perSlice / 2 + 5, far.data(), far.size());
  EXPECT_EQ(values.allocatedBytes(), uint64_t(64) << 20);
  values.upload(transfer, perSlice + 3, next.data(), next.size());
  EXPECT_EQ(values.allocatedBytes(), (uint64_t(64) << 20) + 400);
  std::vector<uint32_t> back(perSlice + 100);
  values.download(transfer, 0, back.data(), back.size());
  uint64_t wrong = 0;
  for (uint64_t i = 0; i < back.size(); ++i) {
    uint32_t expected = 7;
    if (i < 3) expected = head[i];
    if (i >= perSlice / 2 + 5 && i < perSlice / 2 + 7) expected = far[i - perSlice / 2 - 5];
    if (i == perSlice + 3) expected = next[0];
    wrong += back[i] != expected;
  }
  EXPECT_EQ(wrong, 0u);
}

TEST(VulkanSlices, QueuedUploadsLandInTheOrderGiven) {
  // Uploads wait for the next submission; one to bytes already queued (slots freed and filled
  // again before a frame) lands after the first, and uploads larger than the staging buffer's
  // room go in several submissions, each piece where it belongs. Under the validation layer's
  // synchronization checks, two copies to the same bytes in one submission end the test.
  PCV_REQUIRE_VULKAN();
  vk::VulkanContext context("", true);
  vk::VulkanTransfer transfer(context);
  vk::SlicedArray values(context, 4, uint64_t(1) << 22, "test values");
  const uint64_t count = (uint64_t(1) << 24) + 5;  // 64 MiB + 20 bytes: more than one staging
  values.grow(count, 0u);
  std::vector<uint32_t> first(count), second(100);
  for (uint64_t i = 0; i < count; ++i) first[i] = uint32_t(i * 2654435761u);
  for (uint32_t i = 0; i < 100; ++i) second[i] = 0xfeed0000u + i;
  values.upload(transfer, 0, first.data(), count);
  values.upload(transfer, 50, second.data(), second.size());               // over the first's bytes
  values.upload(transfer, count - 60, second.data(), second.size() - 40);  // and at its end
  std::vector<uint32_t> back(count);
  values.download(transfer, 0, back.data(), count);
  uint64_t wrong = 0;
  for (uint64_t i = 0; i < count; ++i) {
    uint32_t expected = first[i];
    if (i >= 50 && i < 150) expected = second[i - 50];
    if (i >= count - 60) expected = second[i - (count - 60)];
    wrong += back[i] != expected;
  }
  EXPECT_EQ(wrong, 0u);
  // A shorter upload from the same element as one queued: both land, the later over the first.
  vk::SlicedArray small(context, 4, 64, "test values");
  small.grow(10, 0u);
  const std::vector<uint32_t> ten = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, four = {41, 42, 43, 44};
  small.upload(transfer, 0, ten.data(), ten.size());
  small.upload(transfer, 0, four.data(), four.size());
  std::vector<uint32_t> smallBack(10);
  small.download(transfer, 0, smallBack.data(), smallBack.size());
  EXPECT_EQ(smallBack, (std::vector<uint32_t>{41, 42, 43, 44, 5, 6, 7, 8, 9, 10}));
}

TEST(VulkanDevices, AutoNeverTakesASoftwareDevice) {
  std::string error;
  const std::vector<VulkanDeviceInfo> devices = listVulkanDevices(&error);
  if (devices.empty()) GTEST_SKIP() << error;
  std::string reason;
  const int best = chooseVulkanDevice(devices, "", false, &reason);
  if (best >= 0) {
    EXPECT_FALSE(devices[size_t(best)].software);
  } else {
    EXPECT_FALSE(reason.empty());
  }
  // A software device is taken when asked for by name or number, and only then.
  for (const VulkanDeviceInfo& device : devices) {
    if (!device.software || !device.usable) continue;
    EXPECT_EQ(chooseVulkanDevice(devices, std::to_string(device.index), false, nullptr),
              int(device.index));
    const bool onlySoftware = best < 0;
    if (onlySoftware) {
      EXPECT_NE(createRenderer("auto")->backendName(), "vulkan");
    }
  }
}

TEST(VulkanDevices, AnUnknownDeviceIsAClearError) {
  PCV_REQUIRE_VULKAN();
  RendererOptions options;
  options.vulkanDevice = "99";
  EXPECT_THROW(createRenderer("vulkan", options), UnavailableError);
  options.vulkanDevice = "no such device name";
  EXPECT_THROW(createRenderer("vulkan", options), UnavailableError);
}

}  // namespace
}  // namespace pcv
