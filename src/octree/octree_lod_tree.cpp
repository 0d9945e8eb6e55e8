// The node tree of the level-of-detail octree from sorted keys (a node's cube is a run of keys
// with one prefix, so its children are found by binary search), and the points each node holds
// grouped in two passes over the leaves: count per (leaf, level), then fill.
#include <algorithm>
#include <atomic>

#include "pcv/core/error.hpp"
#include "pcv/octree/octree_keys.hpp"
#include "pcv/octree/octree_lod.hpp"
#include "pcv/core/parallel.hpp"

namespace pcv {
namespace {

struct TreeBuilder {
  std::span<const uint64_t> keys;
  uint64_t maxPointsPerNode;
  LodTree tree;

  void add(int level, uint64_t key, uint64_t begin, uint64_t end, int32_t parent) {
    const int32_t index = int32_t(tree.nodes.size());
    const bool leaf = end - begin <= maxPointsPerNode || level >= kMaxOctreeLevel;
    tree.nodes.push_back(
        {.level = level, .key = key, .begin = begin, .end = end, .parent = parent, .leaf = leaf});
    if (leaf) return;
    uint64_t childBegin = begin;
    for (uint64_t octant = 0; octant < 8 && childBegin < end; ++octant) {
      const uint64_t childKey = (key << 3) | octant;
      const auto childEnd =
          std::partition_point(keys.begin() + childBegin, keys.begin() + end,
                               [&](uint64_t k) { return nodeKeyAt(k, level + 1) <= childKey; });
      const uint64_t childEndIndex = uint64_t(childEnd - keys.begin());
      if (childEndIndex > childBegin) add(level + 1, childKey, childBegin, childEndIndex, index);
      childBegin = childEndIndex;
    }
  }
};

}  // namespace

LodTree buildLodTree(std::span<const uint64_t> sortedKeys, int rootLevel, uint64_t rootKey,
                     uint64_t maxPointsPerNode) {
  TreeBuilder builder{.keys = sortedKeys,
                      .maxPointsPerNode = std::max<uint64_t>(1, maxPointsPerNode)};
  if (!sortedKeys.empty()) builder.add(rootLevel, rootKey, 0, sortedKeys.size(), -1);
  return std::move(builder.tree);
}

LodTree lodTreeOverChildren(std::span<const uint64_t> sortedKeys, int rootLevel, uint64_t rootKey,
                            std::span<const uint64_t> childEnds) {
  LodTree tree;
  tree.nodes.push_back({.level = rootLevel,
                        .key = rootKey,
                        .begin = 0,
                        .end = sortedKeys.size(),
                        .parent = -1,
                        .leaf = false});
  uint64_t begin = 0;
  for (const uint64_t end : childEnds) {
    if (end <= begin) continue;
    tree.nodes.push_back({.level = rootLevel + 1,
                          .key = nodeKeyAt(sortedKeys[begin], rootLevel + 1),
                          .begin = begin,
                          .end = end,
                          .parent = 0,
                          .leaf = true});
    begin = end;
  }
  if (begin != sortedKeys.size()) {
    throw Error("lodTreeOverChildren: the children end at " + std::to_string(begin) + " of " +
                std::to_string(sortedKeys.size()) + " points");
  }
  return tree;
}

LodNodePoints lodNodePoints(const LodTree& tree, std::span<const uint8_t> holderLevel) {
  LodNodePoints result;
  const size_t nodeCount = tree.nodes.size();
  result.offsets.assign(nodeCount + 1, 0);
  if (nodeCount == 0) return result;
  const int rootLevel = tree.nodes[0].level;
  constexpr int kLevels = kMaxOctreeLevel + 1;
  // Each leaf's ancestors by level (the leaf itself at its own level).
  std::vector<size_t> leaves;
  for (size_t n = 0; n < nodeCount; ++n) {
    if (tree.nodes[n].leaf) leaves.push_back(n);
  }
  std::vector<int32_t> ancestors(leaves.size() * kLevels, -1);
  for (size_t l = 0; l < leaves.size(); ++l) {
    for (int32_t n = int32_t(leaves[l]); n >= 0; n = tree.nodes[n].parent) {
      ancestors[l * kLevels + tree.nodes[n].level] = n;
    }
  }
  // Pass 1: how many points of each leaf each of its ancestors holds.
  std::vector<uint64_t> counts(leaves.size() * kLevels, 0);
  std::atomic<size_t> nextLeaf{0};
  parallelFor(
      workerCount(),
      [&](uint64_t, uint64_t) {
        for (size_t l; (l = nextLeaf.fetch_add(1)) < leaves.size();) {
          const LodNode& leaf = tree.nodes[leaves[l]];
          uint64_t* leafCounts = counts.data() + l * kLevels;
          for (uint64_t p = leaf.begin; p < leaf.end; ++p) ++leafCounts[holderLevel[p]];
        }
      },
      1);
  // Where each (leaf, level) piece goes: nodes in tree order, each node's pieces in leaf order,
  // so every node's positions ascend.
  std::vector<uint64_t> totals(nodeCount, 0);
  for (size_t l = 0; l < leaves.size(); ++l) {
    for (int level = rootLevel; level < kLevels; ++level) {
      const uint64_t count = counts[l * kLevels + level];
      if (count == 0) continue;
      const int32_t node = ancestors[l * kLevels + level];
      if (node < 0) {
        throw Error("lodNodePoints: a point is held at level " + std::to_string(level) +
                    ", where its leaf has no ancestor");
      }
      totals[node] += count;
    }
  }
  for (size_t n = 0; n < nodeCount; ++n) result.offsets[n + 1] = result.offsets[n] + totals[n];
  std::vector<uint64_t> cursor(result.offsets.begin(), result.offsets.end() - 1);
  std::vector<uint64_t>& starts = counts;  // reused: where each piece starts
  for (size_t l = 0; l < leaves.size(); ++l) {
    for (int level = rootLevel; level < kLevels; ++level) {
      uint64_t& slot = starts[l * kLevels + level];
      const uint64_t count = slot;
      if (count == 0) continue;
      const int32_t node = ancestors[l * kLevels + level];
      slot = cursor[node];
      cursor[node] += count;
    }
  }
  // Pass 2: fill.
  result.positions.resize(result.offsets.back());
  nextLeaf = 0;
  parallelFor(
      workerCount(),
      [&](uint64_t, uint64_t) {
        uint64_t at[kLevels];
        for (size_t l; (l = nextLeaf.fetch_add(1)) < leaves.size();) {
          const LodNode& leaf = tree.nodes[leaves[l]];
          std::copy_n(starts.data() + l * kLevels, kLevels, at);
          for (uint64_t p = leaf.begin; p < leaf.end; ++p) {
            result.positions[at[holderLevel[p]]++] = uint32_t(p);
          }
        }
      },
      1);
  return result;
}

}  // namespace pcv
