// A stream whose source is replaced (edits made while it streams): the nodes the change may
// reach are decoded again and swapped in, every node stays drawn meanwhile (no frame loses a
// node or falls back to the roots), the others are not decoded again, and the converged image
// is the one a stream opened on the new source draws.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>

#include "pcv/core/camera_framing.hpp"
#include "pcv/raster/view_setup.hpp"
#include "pcv/stream/streamed_cloud.hpp"
#include "stream_images.hpp"
#include "synthetic_node_source.hpp"
#include "test_support.hpp"

namespace pcv {
namespace {

using test::countColor;
using test::render;
using test::SyntheticNodeSource;

constexpr uint32_t kEdited = 0xffff00ffu;  // magenta, opaque

/// The synthetic forest with the points of one tree in another colour (an edit of that tree),
/// counting the nodes it decodes.
class RecoloredTree final : public NodeSource {
 public:
  RecoloredTree(std::shared_ptr<const SyntheticNodeSource> inner, uint32_t tree)
      : inner_(std::move(inner)), tree_(tree) {}
  const NodeForest& forest() const override { return inner_->forest(); }
  const glm::dvec3& origin() const override { return inner_->origin(); }
  bool hasColor() const override { return true; }
  const std::vector<std::string>& attributeNames() const override {
    return inner_->attributeNames();
  }
  PointCloud decodeNode(size_t node) const override {
    ++decoded;
    PointCloud cloud = inner_->decodeNode(node);
    if (inner_->forest().nodes[node].tree == tree_) {
      for (Point& point : cloud.points) point.rgba = kEdited;
    }
    return cloud;
  }
  mutable std::atomic<int> decoded{0};

 private:
  std::shared_ptr<const SyntheticNodeSource> inner_;
  uint32_t tree_;
};

StreamingOptions everyNode() {
  return {.gpuMemoryBytes = 64ull << 20, .decodeThreads = 2, .refineSpacingPx = 0.0};
}

/// Frames until the stream converges; each frame must draw `drawn` points when given.
std::vector<PointSetId> converge(StreamedCloud& cloud, const Camera& camera,
                                 std::optional<uint64_t> drawn = std::nullopt) {
  for (int frame = 0; frame < 2000; ++frame) {
    std::vector<PointSetId> sets = cloud.update(camera, 320, 180);
    if (drawn) EXPECT_EQ(cloud.stats().pointsDrawn, *drawn) << "frame " << frame;
    if (cloud.converged()) return sets;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  ADD_FAILURE() << "no convergence";
  return {};
}

TEST(StreamSourceReplaced, ReachedNodesAreSwappedInWhileEveryNodeStaysDrawn) {
  const auto synthetic = std::make_shared<const SyntheticNodeSource>(2, 3, 2000);
  auto renderer = createRenderer("cpu", {.storage = PointStorage::Compact});
  StreamedCloud cloud(synthetic, *renderer, everyNode());
  const Camera camera = frameBounds(cloud.bounds(), 16.0f / 9.0f);
  converge(cloud, camera);
  const uint64_t allPoints = 2 * 73 * 2000;  // two trees of 1 + 8 + 64 nodes
  ASSERT_EQ(cloud.stats().pointsDrawn, allPoints);
  EXPECT_EQ(countColor(render(*renderer, cloud.update(camera, 320, 180), camera, cloud.origin()),
                       kEdited),
            0);

  const auto edited = std::make_shared<const RecoloredTree>(synthetic, 1);
  const Box3d secondTree = synthetic->forest().nodes[73].bounds;  // tree 1's root cube
  cloud.replaceSource(edited, [&](const Box3d& box) { return box.overlaps(secondTree); });
  EXPECT_FALSE(cloud.converged()) << "the reached nodes are decoded again";
  // Every frame until the new points are in draws every point: stale ones until replaced.
  const std::vector<PointSetId> sets = converge(cloud, camera, allPoints);
  EXPECT_EQ(edited->decoded.load(), 73) << "tree 1's nodes only, once each";
  const Image swapped = render(*renderer, sets, camera, cloud.origin());
  EXPECT_GT(countColor(swapped, kEdited), 1000);

  // The same image as a stream opened on the edited source.
  auto fresh = createRenderer("cpu", {.storage = PointStorage::Compact});
  StreamedCloud reopened(edited, *fresh, everyNode());
  const Image expected = render(*fresh, converge(reopened, camera), camera, reopened.origin());
  EXPECT_EQ(test::countDifferentPixels(swapped, expected), 0u);
}

TEST(StreamSourceReplaced, NodesNotDrawnAreDroppedAndComeBackFromTheNewSource) {
  const auto synthetic = std::make_shared<const SyntheticNodeSource>(2, 3, 2000);
  auto renderer = createRenderer("cpu", {.storage = PointStorage::Compact});
  StreamedCloud cloud(synthetic, *renderer, everyNode());
  const Camera all = frameBounds(cloud.bounds(), 16.0f / 9.0f);
  converge(cloud, all);
  // Close to tree 0 only: tree 1's nodes stay resident but undrawn.
  const Camera first = frameBounds(synthetic->forest().nodes[0].bounds, 1.0f);
  converge(cloud, first);
  const auto edited = std::make_shared<const RecoloredTree>(synthetic, 1);
  cloud.replaceSource(edited, [](const Box3d&) { return true; });  // everywhere
  const std::vector<PointSetId> sets = converge(cloud, all);
  EXPECT_GT(countColor(render(*renderer, sets, all, cloud.origin()), kEdited), 1000);
  EXPECT_EQ(cloud.stats().pointsDrawn, 2u * 73u * 2000u);
}

}  // namespace
}  // namespace pcv
