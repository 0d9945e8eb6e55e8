// Where a streamed node is laid out: on the loader's threads, never on the frame's. While the
// loader cannot decode, frames draw what is resident and add nothing; once it can, the nodes
// appear as sets the frame only copies in, the data filters read with them.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>

#include "pcv/core/camera_framing.hpp"
#include "pcv/core/image.hpp"
#include "pcv/core/point_filter.hpp"
#include "pcv/raster/view_setup.hpp"
#include "pcv/stream/streamed_cloud.hpp"
#include "node_loader.hpp"
#include "synthetic_node_source.hpp"
#include "test_support.hpp"

namespace pcv {
namespace {

constexpr int kWidth = 320, kHeight = 200;

/// The synthetic forest, whose nodes but the first root wait until the gate opens.
class GatedSource final : public NodeSource {
 public:
  GatedSource() : inner_(3, 2, 3000) {}
  const NodeForest& forest() const override { return inner_.forest(); }
  const glm::dvec3& origin() const override { return inner_.origin(); }
  bool hasColor() const override { return true; }
  const std::vector<std::string>& attributeNames() const override { return names_; }
  PointCloud decodeNode(size_t node) const override {
    while (node != 0 && !open_.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    PointCloud cloud = inner_.decodeNode(node);
    ScalarAttribute classes{.name = "classification", .values = {}};
    classes.values.resize(cloud.size());
    std::fill(classes.values.begin(), classes.values.end(), float(node % 5));
    cloud.attributes = {std::move(classes)};
    return cloud;
  }
  void open() { open_ = true; }

 private:
  test::SyntheticNodeSource inner_;
  std::vector<std::string> names_ = {"classification"};
  std::atomic<bool> open_{false};
};

TEST(LoaderLayout, NodesAppearAfterTheLoadersWorkAndNoFrameLaysOneOut) {
  auto renderer = createRenderer("cpu", {.storage = PointStorage::Compact});
  auto source = std::make_shared<GatedSource>();
  StreamedCloud cloud(source, *renderer,
                      {.pointBudget = 1'000'000, .gpuMemoryBytes = 32 << 20, .filterData = true});
  // The first root is laid out at open, before any frame (the first image's points).
  const uint64_t atOpen = renderer->addedPoints().laidOutHere;
  EXPECT_EQ(atOpen, 3000u);
  const Camera camera = frameBounds(cloud.bounds(), float(kWidth) / float(kHeight));
  std::vector<PointSetId> sets;
  for (int frame = 0; frame < 5; ++frame) {
    sets = cloud.update(camera, kWidth, kHeight);
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  EXPECT_EQ(sets.size(), 1u) << "nothing decoded yet: the root alone";
  EXPECT_EQ(renderer->addedPoints().laidOutAhead, 0u);
  EXPECT_FALSE(cloud.converged());

  source->open();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!cloud.converged() && std::chrono::steady_clock::now() < deadline) {
    sets = cloud.update(camera, kWidth, kHeight);
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ASSERT_TRUE(cloud.converged());
  EXPECT_GT(sets.size(), 3u) << "the other roots and their children";
  EXPECT_EQ(renderer->addedPoints().laidOutHere, atOpen) << "no frame laid out a node";
  EXPECT_EQ(renderer->addedPoints().laidOutAhead, cloud.stats().uploadedPoints - atOpen);
  // The sets carry what filters read: a class filter keeps only the points of that class.
  RenderSettings onlyClass4;
  onlyClass4.filter.classes = parseClassList("4", "--classes");
  Image all(kWidth, kHeight), filtered(kWidth, kHeight);
  const ViewTransform view = makeViewTransform(camera, kWidth, kHeight, cloud.origin());
  renderer->render(sets, view, {}, {all.pixels.data(), kWidth, kHeight, MemorySpace::Host});
  renderer->render(sets, view, onlyClass4,
                   {filtered.pixels.data(), kWidth, kHeight, MemorySpace::Host});
  const auto lit = [](const Image& image) {
    return std::count_if(image.pixels.begin(), image.pixels.end(),
                         [](uint32_t p) { return p != kOpaqueBlack; });
  };
  EXPECT_GT(lit(filtered), 0) << "node 4's points pass";
  EXPECT_LT(lit(filtered), lit(all) / 2) << "most points are of other classes";
}

/// Converges the gated forest's stream on `backend` (its filter data too) and returns the image
/// of all its points and of class 4's, with the points the renderer laid out itself.
struct ConvergedStream {
  Image all{kWidth, kHeight}, class4{kWidth, kHeight};
  AddedPoints added;
  uint64_t uploaded = 0;
};

ConvergedStream convergeOn(const char* backend) {
  auto renderer = createRenderer(backend, {.storage = PointStorage::Compact});
  auto source = std::make_shared<GatedSource>();
  source->open();
  StreamedCloud cloud(source, *renderer,
                      {.pointBudget = 1'000'000, .gpuMemoryBytes = 32 << 20, .filterData = true});
  const Camera camera = frameBounds(cloud.bounds(), float(kWidth) / float(kHeight));
  std::vector<PointSetId> sets;
  // A bound against a hang, generous: under compute-sanitizer's racecheck, beside other checked
  // runs, the device's layouts take tens of seconds (scripts/gpu-check.sh).
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(180);
  while (!cloud.converged() && std::chrono::steady_clock::now() < deadline) {
    sets = cloud.update(camera, kWidth, kHeight);
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_TRUE(cloud.converged()) << backend;
  ConvergedStream result;
  RenderSettings onlyClass4;
  onlyClass4.filter.classes = parseClassList("4", "--classes");
  const ViewTransform view = makeViewTransform(camera, kWidth, kHeight, cloud.origin());
  renderer->render(sets, view, {}, {result.all.pixels.data(), kWidth, kHeight, MemorySpace::Host});
  renderer->render(sets, view, onlyClass4,
                   {result.class4.pixels.data(), kWidth, kHeight, MemorySpace::Host});
  result.added = renderer->addedPoints();
  result.uploaded = cloud.stats().uploadedPoints;
  return result;
}

TEST(LoaderLayout, NodesGoUnsortedToADeviceThatLaysOutAndDrawAsTheHostsLayout) {
  std::string whyNot;
  if (!cudaAvailable(&whyNot)) GTEST_SKIP() << whyNot;
  const ConvergedStream host = convergeOn("cpu");
  const ConvergedStream device = convergeOn("cuda");
  EXPECT_GT(host.added.laidOutAhead, 0u) << "the CPU backend's nodes come laid out";
  EXPECT_EQ(device.added.laidOutAhead, 0u) << "CUDA's come unsorted";
  EXPECT_EQ(device.added.laidOutHere, device.uploaded);
  EXPECT_EQ(device.uploaded, host.uploaded);
  EXPECT_GT(test::countLitPixels(host.all, kOpaqueBlack), 1000u);
  EXPECT_GT(test::countLitPixels(host.class4, kOpaqueBlack), 0u);
  EXPECT_EQ(test::countDifferentPixels(host.all, device.all), 0u);
  EXPECT_EQ(test::countDifferentPixels(host.class4, device.class4), 0u);
}

TEST(LoaderLayout, ForADeviceLayoutNodesKeepTheirColouredPointsAndWhatFiltersRead) {
  auto source = std::make_shared<GatedSource>();
  source->open();
  for (const bool filterData : {false, true}) {
    NodeLoader loader(source, ColoringOptions{}, 2, 64 << 20,
                      NodeLayout{.spec = {.storage = PointStorage::Compact, .slicePoints = 1 << 20},
                                 .filterData = filterData,
                                 .onDevice = true});
    loader.want({{.node = 1, .points = 3000}});
    std::vector<DecodedNode> taken;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (taken.empty() && std::chrono::steady_clock::now() < deadline) {
      taken = loader.take(1);
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    ASSERT_EQ(taken.size(), 1u);
    const DecodedNode& node = taken.front();
    EXPECT_EQ(node.set.pointCount(), 0u) << "not laid out on the host";
    EXPECT_EQ(node.pointCount(), 3000u);
    // The points as decoded, in their order, coloured by the loader's colouring.
    const PointCloud decoded = source->decodeNode(1);
    UninitializedVector<Point> colored;
    coloredPoints(decoded, ColoringOptions{}, colored);
    ASSERT_EQ(node.unsorted.points.size(), colored.size());
    for (size_t i = 0; i < colored.size(); ++i) {
      ASSERT_EQ(node.unsorted.points[i].x, colored[i].x) << i;
      ASSERT_EQ(node.unsorted.points[i].rgba, colored[i].rgba) << i;
    }
    EXPECT_EQ(node.unsorted.attributes.size(), filterData ? 1u : 0u) << "classification";
    EXPECT_GE(node.hostBytes(), 3000u * sizeof(Point));
  }
}

}  // namespace
}  // namespace pcv
