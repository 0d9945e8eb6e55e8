/// @brief A forest of octrees as the node selection walks it: each node's parent and children by
/// index, its cube and the spacing of its points, and the roots of all trees (a COPC file is one
/// tree; a set of tiles is many, ranked together).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "pcv/core/bounds.hpp"
#include "pcv/io/copc_hierarchy.hpp"
#include "pcv/stream/node_source.hpp"

namespace pcv {

class OctreeIndex {
 public:
  static constexpr int32_t kNone = -1;

  explicit OctreeIndex(const NodeForest& forest);
  /// One tree: forestOf(hierarchy).
  explicit OctreeIndex(const CopcHierarchy& hierarchy);

  /// Takes in a tree the source learned after opening (NodeSource::growthSince): its root
  /// becomes growth.rootNode and its other nodes are appended, numbered from size() on, linked
  /// to their parents by their keys.
  void grow(const TreeGrowth& growth);

  size_t size() const { return nodes_.size(); }
  /// The level-0 node of each tree that has one, in tree order.
  const std::vector<int32_t>& roots() const { return roots_; }
  /// Whether `index` is one of roots().
  bool isRoot(size_t index) const { return isRoot_[index]; }
  const SourceNode& node(size_t index) const { return nodes_[index]; }
  int32_t parent(size_t index) const { return parent_[index]; }
  /// Up to eight children, kNone where there is none.
  const std::array<int32_t, 8>& children(size_t index) const { return children_[index]; }
  /// Whether `index` belongs to a tree that stands in for the others (SourceTree::standsIn).
  bool standsIn(size_t index) const { return trees_[nodes_[index].tree].standsIn; }
  /// Typical distance between the points of `index` (its tree's root spacing halved per level).
  double spacing(size_t index) const;
  /// The box around every root's cube (empty for an empty forest).
  Box3d bounds() const;

 private:
  std::vector<SourceNode> nodes_;
  std::vector<int32_t> parent_;
  std::vector<std::array<int32_t, 8>> children_;
  std::vector<int32_t> roots_;
  std::vector<bool> isRoot_;       // by node
  std::vector<SourceTree> trees_;  // the forest's, a root spacing filled in where none was given
};

}  // namespace pcv
