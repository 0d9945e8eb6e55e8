#include "pcv/stream/octree_index.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "pcv/stream/copc_node_source.hpp"

namespace pcv {
namespace {

using KeyTuple = std::tuple<uint32_t, int32_t, int32_t, int32_t, int32_t>;

KeyTuple tupleOf(uint32_t tree, const CopcNodeKey& key) {
  return {tree, key.level, key.x, key.y, key.z};
}

}  // namespace

OctreeIndex::OctreeIndex(const CopcHierarchy& hierarchy) : OctreeIndex(forestOf(hierarchy)) {}

OctreeIndex::OctreeIndex(const NodeForest& forest)
    : nodes_(forest.nodes),
      parent_(forest.nodes.size(), kNone),
      children_(forest.nodes.size()),
      rootSpacing_(forest.trees.size(), 0.0) {
  std::map<KeyTuple, int32_t> byKey;
  for (size_t i = 0; i < nodes_.size(); ++i) {
    byKey[tupleOf(nodes_[i].tree, nodes_[i].key)] = int32_t(i);
  }
  for (auto& children : children_) children.fill(kNone);
  for (size_t i = 0; i < nodes_.size(); ++i) {
    const SourceNode& node = nodes_[i];
    const CopcNodeKey& key = node.key;
    if (key.level == 0) {
      roots_.push_back(int32_t(i));
      continue;
    }
    const auto parent =
        byKey.find(tupleOf(node.tree, {key.level - 1, key.x / 2, key.y / 2, key.z / 2}));
    if (parent == byKey.end()) continue;  // an orphan is never reached from a root
    parent_[i] = parent->second;
    const int child = (key.x & 1) | (key.y & 1) << 1 | (key.z & 1) << 2;
    children_[size_t(parent->second)][size_t(child)] = int32_t(i);
  }
  // Roots in tree order, so the forest's ranking does not depend on the order nodes are listed.
  std::sort(roots_.begin(), roots_.end(),
            [&](int32_t a, int32_t b) { return nodes_[size_t(a)].tree < nodes_[size_t(b)].tree; });
  for (size_t tree = 0; tree < forest.trees.size(); ++tree) {
    rootSpacing_[tree] = forest.trees[tree].rootSpacing;
  }
  for (int32_t root : roots_) {
    double& spacing = rootSpacing_[nodes_[size_t(root)].tree];
    if (!(spacing > 0.0)) {
      // A tree that states no spacing: a root of ~100 x 100 points across its cube.
      const glm::dvec3 size = nodes_[size_t(root)].bounds.size();
      spacing = std::max({size.x, size.y, size.z}) / 100.0;
    }
  }
}

double OctreeIndex::spacing(size_t index) const {
  return std::ldexp(rootSpacing_[nodes_[index].tree], -nodes_[index].key.level);
}

Box3d OctreeIndex::bounds() const {
  Box3d box;
  for (int32_t root : roots_) box.extend(nodes_[size_t(root)].bounds);
  return box;
}

}  // namespace pcv
