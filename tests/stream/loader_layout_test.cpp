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
#include "synthetic_node_source.hpp"

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

}  // namespace
}  // namespace pcv
