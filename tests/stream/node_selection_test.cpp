// Node selection against a brute-force reference on synthetic octrees: the same nodes in the
// same order, parents always before children, the budget kept, nothing outside the view.
#include <gtest/gtest.h>

#include <random>

#include "pcv/stream/node_selection.hpp"

namespace pcv {
namespace {

/// A full octree of `levels` levels around the origin (root half-size 100) with random counts.
CopcHierarchy syntheticHierarchy(int levels, uint64_t seed) {
  CopcHierarchy h{.center = glm::dvec3(0.0), .halfSize = 100.0, .spacing = 4.0};
  std::mt19937_64 random(seed);
  for (int level = 0; level < levels; ++level) {
    const int cells = 1 << level;
    for (int x = 0; x < cells; ++x) {
      for (int y = 0; y < cells; ++y) {
        for (int z = 0; z < cells; ++z) {
          CopcNode node{.key = {level, x, y, z}, .pointCount = 100 + random() % 5000};
          node.bounds = h.boundsOf(node.key);
          h.nodes.push_back(node);
        }
      }
    }
  }
  std::shuffle(h.nodes.begin(), h.nodes.end(), random);  // file order means nothing
  return h;
}

/// The definition, naively: repeatedly take the highest-priority visible candidate (a node whose
/// parent is taken and needs refinement, or the root) that fits, scanning every node each step.
std::vector<uint32_t> bruteForce(const OctreeIndex& tree, const NodeSelectionParams& p) {
  std::vector<uint32_t> chosen;
  std::vector<bool> taken(tree.size(), false), skipped(tree.size(), false);
  uint64_t points = 0;
  for (;;) {
    int64_t best = -1;
    double bestPriority = 0.0;
    for (size_t n = 0; n < tree.size(); ++n) {
      if (taken[n] || skipped[n]) continue;
      const int32_t parent = tree.parent(n);
      const bool candidate =
          int32_t(n) == tree.root() || (parent != OctreeIndex::kNone && taken[size_t(parent)] &&
                                        needsRefinement(tree, size_t(parent), p));
      const double priority = candidate ? nodePriority(tree, n, p) : 0.0;
      if (priority > bestPriority) best = int64_t(n), bestPriority = priority;
    }
    if (best < 0) return chosen;
    if (points + tree.node(size_t(best)).pointCount > p.pointBudget) {
      skipped[size_t(best)] = true;
      continue;
    }
    points += tree.node(size_t(best)).pointCount;
    taken[size_t(best)] = true;
    chosen.push_back(uint32_t(best));
  }
}

TEST(NodeSelection, MatchesTheBruteForceReferenceAtManyViewsAndBudgets) {
  const CopcHierarchy hierarchy = syntheticHierarchy(4, 7);
  const OctreeIndex tree(hierarchy);
  std::mt19937 random(3);
  std::uniform_real_distribution<double> coordinate(-300.0, 300.0);
  std::uniform_real_distribution<float> angle(-180.0f, 180.0f);
  int checked = 0;
  for (int view = 0; view < 40; ++view) {
    Camera camera =
        Camera::lookingFrom({coordinate(random), coordinate(random), coordinate(random)},
                            angle(random), angle(random) / 4);
    camera.farPlane = 2000.0f;
    for (uint64_t budget : {0ull, 20'000ull, 200'000ull, 10'000'000ull}) {
      const NodeSelectionParams params{
          .camera = camera, .widthPx = 640, .heightPx = 360, .pointBudget = budget};
      const std::vector<uint32_t> chosen = selectNodes(tree, params);
      EXPECT_EQ(chosen, bruteForce(tree, params)) << "view " << view << ", budget " << budget;
      uint64_t points = 0;
      std::vector<bool> taken(tree.size(), false);
      for (uint32_t node : chosen) {
        points += tree.node(node).pointCount;
        const int32_t parent = tree.parent(node);
        EXPECT_TRUE(int32_t(node) == tree.root() || taken[size_t(parent)]) << "parent first";
        EXPECT_GT(nodePriority(tree, node, params), 0.0) << "in view";
        taken[node] = true;
      }
      EXPECT_LE(points, budget);
      checked += !chosen.empty();
    }
  }
  EXPECT_GT(checked, 20);
}

TEST(NodeSelection, FarViewsStopAtCoarseLevels) {
  const OctreeIndex tree(syntheticHierarchy(4, 8));
  Camera near = Camera::lookingFrom({-150.0, 0.0, 0.0}, 0.0f, 0.0f);
  Camera far = Camera::lookingFrom({-20000.0, 0.0, 0.0}, 0.0f, 0.0f);
  near.farPlane = far.farPlane = 100000.0f;
  auto deepest = [&](const Camera& camera) {
    int level = -1;
    for (uint32_t node : selectNodes(tree, {.camera = camera, .pointBudget = ~0ull})) {
      level = std::max(level, tree.node(node).key.level);
    }
    return level;
  };
  EXPECT_EQ(deepest(near), 3);  // spacing 0.5 at level 3 still shows more than a pixel
  EXPECT_EQ(deepest(far), 0);   // the root's spacing is below a pixel from 20 km
}

}  // namespace
}  // namespace pcv
