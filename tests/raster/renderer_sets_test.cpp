// The renderer's unit of drawing, the point set: sets added and removed, their slots reused,
// frames of all sets or of a few, payloads traced back to their set. On the CPU backend; the
// CUDA backend is held to the same images in cuda_vs_cpu_test.cpp.
#include "range_allocator.hpp"
#include "test_support.hpp"

namespace pcv {
namespace {

TEST(RangeAllocator, ReusesAndMergesFreedRanges) {
  RangeAllocator slots;
  EXPECT_FALSE(slots.allocate(10).has_value());  // nothing to give yet
  slots.grow(100);
  const uint64_t a = *slots.allocate(30), b = *slots.allocate(30, 16), c = *slots.allocate(20);
  EXPECT_EQ(a, 0u);
  EXPECT_EQ(b, 32u);  // aligned to 16
  EXPECT_EQ(c, 62u);
  EXPECT_EQ(slots.usedEnd(), 82u);
  EXPECT_FALSE(slots.allocate(40).has_value());
  slots.release(b, 30);
  slots.release(a, 30);  // merges with the gap before b
  EXPECT_EQ(*slots.allocate(60), 0u);
  slots.grow(200);
  EXPECT_EQ(*slots.allocate(118), 82u);  // the tail grew in one piece
  EXPECT_EQ(slots.used(), 198u);
}

std::vector<Point> rowOfPoints(float y, uint32_t rgba, int count) {
  std::vector<Point> points;
  for (int i = 0; i < count; ++i) points.push_back({-1.0f, y, -0.5f + 0.01f * i, rgba});
  return points;
}

TEST(RendererSets, FramesDrawEverySetOrTheOnesAsked) {
  auto renderer = createRenderer("cpu");
  const PointSetId red = renderer->addSet(rowOfPoints(-0.3f, packRgba(255, 0, 0), 50));
  const PointSetId green = renderer->addSet(rowOfPoints(0.0f, packRgba(0, 255, 0), 50));
  const PointSetId blue = renderer->addSet(rowOfPoints(0.3f, packRgba(0, 0, 255), 50));
  EXPECT_EQ(renderer->pointCount(), 150u);
  EXPECT_EQ(renderer->sets(), (std::vector<PointSetId>{red, green, blue}));
  const ViewTransform view = test::makeView(Camera{}, 200, 200);
  auto countColor = [](const Image& image, uint32_t rgba) {
    return std::count(image.pixels.begin(), image.pixels.end(), rgba);
  };
  const Image all = test::renderToImage(*renderer, view, {});
  EXPECT_GT(countColor(all, packRgba(255, 0, 0)), 20);
  EXPECT_GT(countColor(all, packRgba(0, 255, 0)), 20);
  EXPECT_GT(countColor(all, packRgba(0, 0, 255)), 20);

  Image two(200, 200, test::kPoisonPixel);
  const std::vector<PointSetId> sets = {blue, red};
  renderer->render(sets, view, {}, {two.pixels.data(), 200, 200, MemorySpace::Host});
  EXPECT_EQ(countColor(two, packRgba(255, 0, 0)), countColor(all, packRgba(255, 0, 0)));
  EXPECT_EQ(countColor(two, packRgba(0, 255, 0)), 0);
  EXPECT_EQ(countColor(two, packRgba(0, 0, 255)), countColor(all, packRgba(0, 0, 255)));
  EXPECT_EQ(test::countLitPixels(two, test::kPoisonPixel), two.pixels.size());
}

TEST(RendererSets, RemovedSetsVanishAndTheirSlotsAreReused) {
  auto renderer = createRenderer("cpu");
  const PointSetId first = renderer->addSet(rowOfPoints(-0.3f, packRgba(255, 0, 0), 40));
  const PointSetId second = renderer->addSet(rowOfPoints(0.3f, packRgba(0, 0, 255), 40));
  const uint64_t bytes = renderer->residentBytes();
  renderer->removeSet(first);
  EXPECT_EQ(renderer->pointCount(), 40u);
  const Image image = test::renderToImage(*renderer, test::makeView(Camera{}, 200, 200), {});
  EXPECT_EQ(std::count(image.pixels.begin(), image.pixels.end(), packRgba(255, 0, 0)), 0);
  // A set that fits the freed slots takes them: the pool does not grow.
  const PointSetId third = renderer->addSet(rowOfPoints(0.0f, packRgba(0, 255, 0), 30));
  EXPECT_EQ(renderer->residentBytes(), bytes);
  EXPECT_EQ(renderer->sets(), (std::vector<PointSetId>{second, third}));
  renderer->removeSet(12345);  // unknown: ignored
  renderer->removeSet(second);
  renderer->removeSet(third);
  EXPECT_EQ(renderer->residentBytes(), 0u);  // the last set gives the pool back
  EXPECT_EQ(test::countLitPixels(
                test::renderToImage(*renderer, test::makeView(Camera{}, 64, 64), {}), kOpaqueBlack),
            0u);
}

TEST(RendererSets, PayloadsNameTheirSetAndPoint) {
  auto renderer = createRenderer("cpu");
  const PointSetId a = renderer->addSet(rowOfPoints(0.0f, kOpaqueBlack, 5));
  const PointSetId b = renderer->addSet(rowOfPoints(0.0f, kOpaqueBlack, 7));
  // Slots come in multiples of 16 points: a holds payloads 0..4, b 16..22.
  EXPECT_EQ(renderer->locate(3)->set, a);
  EXPECT_EQ(renderer->locate(3)->index, 3u);
  EXPECT_FALSE(renderer->locate(5).has_value());
  EXPECT_EQ(renderer->locate(22)->set, b);
  EXPECT_EQ(renderer->locate(22)->index, 6u);
  EXPECT_FALSE(renderer->locate(23).has_value());
}

TEST(RendererSets, SetsLargerThanALayoutSliceDrawAsOne) {
  // Two batches per slice: 100 000 points take five slices, each sorted on its own.
  const CylinderProducer points(makeCylinderSet(3), 100'000);
  auto sliced = createRenderer("cpu", {.layoutSliceBatches = 2});
  auto whole = createRenderer("cpu");
  sliced->addSet(points);
  whole->addSet(points);
  RenderSettings packed;
  packed.method = RasterMethod::Packed;
  const ViewTransform view = test::makeView(Camera{}, 320, 200);
  // The 16-byte points draw the same cloud whatever the order...
  const Image a = test::renderToImage(*sliced, view, packed);
  EXPECT_EQ(test::countLitPixels(a, kOpaqueBlack),
            test::countLitPixels(test::renderToImage(*whole, view, packed), kOpaqueBlack));
  // ...and the compact layout of the slices covers what the full-precision points do.
  const Image compact = test::renderToImage(*sliced, view, {});
  const double litCompact = double(test::countLitPixels(compact, kOpaqueBlack));
  const double litPacked = double(test::countLitPixels(a, kOpaqueBlack));
  EXPECT_NEAR(litCompact, litPacked, 0.01 * litPacked);
}

TEST(RendererSets, EdlAutoShadesOnlyWhenASetHasNoColorOfItsOwn) {
  auto renderer = createRenderer("cpu");
  const std::vector<Point> points = rowOfPoints(0.0f, packRgba(200, 200, 200), 50);
  renderer->addSet(points, {.hasColor = true});
  RenderSettings automatic;
  automatic.quality.edl = EdlMode::Auto;
  const ViewTransform view = test::makeView(Camera{}, 64, 64);
  test::renderToImage(*renderer, view, automatic);
  for (const StageTiming& stage : renderer->lastTimings()) EXPECT_NE(stage.stage, "shade");
  renderer->clear();
  renderer->addSet(points, {.hasColor = false});
  test::renderToImage(*renderer, view, automatic);
  bool shaded = false;
  for (const StageTiming& stage : renderer->lastTimings()) shaded |= stage.stage == "shade";
  EXPECT_TRUE(shaded);
}

}  // namespace
}  // namespace pcv
