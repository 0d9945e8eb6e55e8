// Node selection against a brute-force reference on synthetic octrees and forests of them: the
// same nodes in the same order, parents always before children, the budget kept, nothing outside
// the view; a forest is ranked as one under one budget.
#include <gtest/gtest.h>

#include <random>

#include "pcv/stream/copc_node_source.hpp"
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

/// `trees` synthetic octrees of `levels` levels side by side along x (root centres 250 apart),
/// each with its own spacing, their nodes shuffled together.
NodeForest syntheticForest(int trees, int levels, uint64_t seed) {
  NodeForest forest;
  for (int t = 0; t < trees; ++t) {
    CopcHierarchy h = syntheticHierarchy(levels, seed + uint64_t(t));
    h.center = glm::dvec3(250.0 * t, 0.0, 0.0);
    for (CopcNode& node : h.nodes) node.bounds = h.boundsOf(node.key);
    NodeForest one = forestOf(h);
    forest.trees.push_back({.rootSpacing = 2.0 + t});
    for (SourceNode node : one.nodes) {
      node.tree = uint32_t(t);
      forest.nodes.push_back(node);
    }
  }
  std::mt19937_64 random(seed);
  std::shuffle(forest.nodes.begin(), forest.nodes.end(), random);
  return forest;
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
          tree.isRoot(n) || (parent != OctreeIndex::kNone && taken[size_t(parent)] &&
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

/// Compares selectNodes with the brute force at 40 random views and four budgets; the number
/// of cases where something was chosen.
int checkAgainstBruteForce(const OctreeIndex& tree, uint32_t seed) {
  std::mt19937 random(seed);
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
        EXPECT_TRUE(tree.isRoot(node) || taken[size_t(parent)]) << "parent first";
        EXPECT_GT(nodePriority(tree, node, params), 0.0) << "in view";
        taken[node] = true;
      }
      EXPECT_LE(points, budget);
      checked += !chosen.empty();
    }
  }
  return checked;
}

TEST(NodeSelection, MatchesTheBruteForceReferenceAtManyViewsAndBudgets) {
  const CopcHierarchy hierarchy = syntheticHierarchy(4, 7);
  EXPECT_GT(checkAgainstBruteForce(OctreeIndex(hierarchy), 3), 20);
}

TEST(NodeSelection, MatchesTheBruteForceReferenceOverAForest) {
  const OctreeIndex forest(syntheticForest(3, 3, 11));
  ASSERT_EQ(forest.roots().size(), 3u);
  EXPECT_GT(checkAgainstBruteForce(forest, 5), 20);
}

TEST(OctreeIndex, LinksNodesWithinTheirOwnTreeOnly) {
  const NodeForest nodes = syntheticForest(2, 3, 4);
  const OctreeIndex forest(nodes);
  ASSERT_EQ(forest.roots().size(), 2u);
  EXPECT_NE(forest.node(size_t(forest.roots()[0])).tree,
            forest.node(size_t(forest.roots()[1])).tree);
  for (size_t n = 0; n < forest.size(); ++n) {
    const int32_t parent = forest.parent(n);
    if (forest.isRoot(n)) {
      EXPECT_EQ(parent, OctreeIndex::kNone);
      continue;
    }
    ASSERT_NE(parent, OctreeIndex::kNone) << "a full tree has no orphans";
    EXPECT_EQ(forest.node(size_t(parent)).tree, forest.node(n).tree);
    EXPECT_EQ(forest.node(size_t(parent)).key.level + 1, forest.node(n).key.level);
  }
  // Spacing is per tree: 2 and 3 at the roots, halved per level.
  for (int32_t root : forest.roots()) {
    EXPECT_DOUBLE_EQ(forest.spacing(size_t(root)), 2.0 + forest.node(size_t(root)).tree);
  }
  EXPECT_DOUBLE_EQ(forest.bounds().min.x, -100.0);
  EXPECT_DOUBLE_EQ(forest.bounds().max.x, 350.0);
}

TEST(OctreeIndex, AKeyListedTwiceIsOneNode) {
  NodeForest nodes = syntheticForest(2, 2, 6);
  // The first tree's root and one of its children, listed again at the end.
  for (const SourceNode node : std::vector<SourceNode>(nodes.nodes)) {
    if (node.tree == 0 &&
        (node.key == CopcNodeKey{0, 0, 0, 0} || node.key == CopcNodeKey{1, 1, 0, 1})) {
      nodes.nodes.push_back(node);
    }
  }
  const OctreeIndex forest(nodes);
  ASSERT_EQ(forest.roots().size(), 2u) << "one root per tree";
  size_t rootsFlagged = 0;
  for (size_t n = 0; n < forest.size(); ++n) rootsFlagged += forest.isRoot(n);
  EXPECT_EQ(rootsFlagged, 2u);
  Camera camera = Camera::lookingFrom({-300.0, 0.0, 0.0}, 0.0f, 0.0f);
  camera.farPlane = 5000.0f;
  const std::vector<uint32_t> chosen =
      selectNodes(forest, {.camera = camera, .pointBudget = ~0ull, .refineSpacingPx = 0.0});
  EXPECT_EQ(chosen.size(), nodes.nodes.size() - 2) << "every node once";
}

TEST(NodeSelection, RanksTheTreesOfAForestUnderOneBudget) {
  // Two trees; the camera sits near the first, looking along +x over both.
  const OctreeIndex forest(syntheticForest(2, 4, 9));
  Camera camera = Camera::lookingFrom({-150.0, 0.0, 0.0}, 0.0f, 0.0f);
  camera.farPlane = 10000.0f;
  NodeSelectionParams params{.camera = camera, .pointBudget = ~0ull};
  auto pointsOf = [&](const std::vector<uint32_t>& chosen, uint32_t tree) {
    uint64_t points = 0;
    for (uint32_t node : chosen) {
      if (forest.node(node).tree == tree) points += forest.node(node).pointCount;
    }
    return points;
  };
  const std::vector<uint32_t> all = selectNodes(forest, params);
  EXPECT_GT(pointsOf(all, 0), 0u);
  EXPECT_GT(pointsOf(all, 1), 0u) << "both trees are drawn";
  // A third of the points: the near tree keeps most of what it had, the far one little.
  params.pointBudget = (pointsOf(all, 0) + pointsOf(all, 1)) / 3;
  const std::vector<uint32_t> part = selectNodes(forest, params);
  EXPECT_GT(pointsOf(part, 1), 0u) << "the far tree's root still fits";
  EXPECT_LE(pointsOf(part, 0) + pointsOf(part, 1), params.pointBudget);
  EXPECT_GT(double(pointsOf(part, 0)) / double(pointsOf(all, 0)),
            2.0 * double(pointsOf(part, 1)) / double(pointsOf(all, 1)));
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
