#include "pcv/stream/octree_index.hpp"

#include <cmath>
#include <map>
#include <tuple>

namespace pcv {
namespace {

using KeyTuple = std::tuple<int32_t, int32_t, int32_t, int32_t>;

KeyTuple tupleOf(const CopcNodeKey& key) {
  return {key.level, key.x, key.y, key.z};
}

}  // namespace

OctreeIndex::OctreeIndex(const CopcHierarchy& hierarchy)
    : nodes_(hierarchy.nodes),
      parent_(hierarchy.nodes.size(), kNone),
      children_(hierarchy.nodes.size()),
      rootSpacing_(hierarchy.spacing) {
  std::map<KeyTuple, int32_t> byKey;
  if (!(rootSpacing_ > 0.0)) {
    // A hierarchy that states no spacing: a root of ~100 x 100 points across its cube.
    rootSpacing_ = 2.0 * hierarchy.halfSize / 100.0;
  }
  for (size_t i = 0; i < nodes_.size(); ++i) byKey[tupleOf(nodes_[i].key)] = int32_t(i);
  for (auto& children : children_) children.fill(kNone);
  for (size_t i = 0; i < nodes_.size(); ++i) {
    const CopcNodeKey& key = nodes_[i].key;
    if (key.level == 0) {
      root_ = int32_t(i);
      continue;
    }
    const auto parent = byKey.find({key.level - 1, key.x / 2, key.y / 2, key.z / 2});
    if (parent == byKey.end()) continue;  // an orphan is never reached from the root
    parent_[i] = parent->second;
    const int child = (key.x & 1) | (key.y & 1) << 1 | (key.z & 1) << 2;
    children_[size_t(parent->second)][size_t(child)] = int32_t(i);
  }
}

double OctreeIndex::spacing(size_t index) const {
  return std::ldexp(rootSpacing_, -nodes_[index].key.level);
}

}  // namespace pcv
