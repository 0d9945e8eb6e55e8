#include "pcv/stream/octree_index.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "pcv/stream/copc_node_source.hpp"

namespace pcv {
namespace {

/// A node's tree and key in one hashable value.
struct TreeKey {
  uint32_t tree;
  CopcNodeKey key;
  bool operator==(const TreeKey&) const = default;
};

struct TreeKeyHash {
  size_t operator()(const TreeKey& k) const {
    // splitmix64's finalizer over each part in turn: every bit of every part reaches the bucket.
    uint64_t h = k.tree;
    for (int32_t part : {k.key.level, k.key.x, k.key.y, k.key.z}) {
      h += uint32_t(part) + 0x9e3779b97f4a7c15ull;
      h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
      h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
      h ^= h >> 31;
    }
    return size_t(h);
  }
};

}  // namespace

OctreeIndex::OctreeIndex(const CopcHierarchy& hierarchy) : OctreeIndex(forestOf(hierarchy)) {}

OctreeIndex::OctreeIndex(const NodeForest& forest)
    : nodes_(forest.nodes),
      parent_(forest.nodes.size(), kNone),
      children_(forest.nodes.size()),
      isRoot_(forest.nodes.size(), false),
      trees_(forest.trees) {
  // Hashed, not ordered: a forest of thousands of tiles has millions of nodes.
  std::unordered_map<TreeKey, int32_t, TreeKeyHash> byKey;
  byKey.reserve(nodes_.size());
  for (size_t i = 0; i < nodes_.size(); ++i) byKey[{nodes_[i].tree, nodes_[i].key}] = int32_t(i);
  for (auto& children : children_) children.fill(kNone);
  for (size_t i = 0; i < nodes_.size(); ++i) {
    const SourceNode& node = nodes_[i];
    const CopcNodeKey& key = node.key;
    if (key.level == 0) {
      // A key listed twice is one node (the last listed, as for children): one root per tree.
      if (byKey.at({node.tree, key}) == int32_t(i)) {
        roots_.push_back(int32_t(i));
        isRoot_[i] = true;
      }
      continue;
    }
    const auto parent = byKey.find({node.tree, {key.level - 1, key.x / 2, key.y / 2, key.z / 2}});
    if (parent == byKey.end()) continue;  // an orphan is never reached from a root
    parent_[i] = parent->second;
    const int child = (key.x & 1) | (key.y & 1) << 1 | (key.z & 1) << 2;
    children_[size_t(parent->second)][size_t(child)] = int32_t(i);
  }
  // Roots in tree order, so the forest's ranking does not depend on the order nodes are listed.
  std::sort(roots_.begin(), roots_.end(),
            [&](int32_t a, int32_t b) { return nodes_[size_t(a)].tree < nodes_[size_t(b)].tree; });
  for (int32_t root : roots_) {
    double& spacing = trees_[nodes_[size_t(root)].tree].rootSpacing;
    if (!(spacing > 0.0)) {
      // A tree that states no spacing: a root of ~100 x 100 points across its cube.
      const glm::dvec3 size = nodes_[size_t(root)].bounds.size();
      spacing = std::max({size.x, size.y, size.z}) / 100.0;
    }
  }
}

void OctreeIndex::grow(const TreeGrowth& growth) {
  if (growth.root >= nodes_.size()) return;
  const uint32_t tree = nodes_[growth.root].tree;
  nodes_[growth.root] = growth.rootNode;
  nodes_[growth.root].tree = tree;
  const size_t first = nodes_.size();
  std::unordered_map<TreeKey, int32_t, TreeKeyHash> byKey;
  byKey.reserve(growth.nodes.size() + 1);
  byKey[{tree, growth.rootNode.key}] = int32_t(growth.root);
  for (const SourceNode& node : growth.nodes) {
    byKey[{tree, node.key}] = int32_t(nodes_.size());
    nodes_.push_back(node);
    nodes_.back().tree = tree;
  }
  parent_.resize(nodes_.size(), kNone);
  children_.resize(nodes_.size());
  isRoot_.resize(nodes_.size(), false);
  for (size_t i = first; i < nodes_.size(); ++i) {
    children_[i].fill(kNone);
    const CopcNodeKey& key = nodes_[i].key;
    if (key.level == 0) continue;  // the tree has its root already
    const auto parent = byKey.find({tree, {key.level - 1, key.x / 2, key.y / 2, key.z / 2}});
    if (parent == byKey.end()) continue;
    parent_[i] = parent->second;
    const int child = (key.x & 1) | (key.y & 1) << 1 | (key.z & 1) << 2;
    children_[size_t(parent->second)][size_t(child)] = int32_t(i);
  }
  double spacing = growth.rootSpacing;
  if (!(spacing > 0.0)) {
    const glm::dvec3 size = nodes_[growth.root].bounds.size();
    spacing = std::max({size.x, size.y, size.z}) / 100.0;
  }
  trees_[tree].rootSpacing = spacing;
}

double OctreeIndex::spacing(size_t index) const {
  return std::ldexp(trees_[nodes_[index].tree].rootSpacing, -nodes_[index].key.level);
}

Box3d OctreeIndex::bounds() const {
  Box3d box;
  for (int32_t root : roots_) box.extend(nodes_[size_t(root)].bounds);
  return box;
}

}  // namespace pcv
