/// @brief A COPC octree as the node selection walks it: each node's parent and children by
/// index, its cube and the spacing of its points.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "pcv/core/bounds.hpp"
#include "pcv/io/copc_hierarchy.hpp"

namespace pcv {

class OctreeIndex {
 public:
  static constexpr int32_t kNone = -1;

  explicit OctreeIndex(const CopcHierarchy& hierarchy);

  size_t size() const { return nodes_.size(); }
  /// The root's index, or kNone for an empty hierarchy.
  int32_t root() const { return root_; }
  const CopcNode& node(size_t index) const { return nodes_[index]; }
  int32_t parent(size_t index) const { return parent_[index]; }
  /// Up to eight children, kNone where there is none.
  const std::array<int32_t, 8>& children(size_t index) const { return children_[index]; }
  /// Typical distance between the points of `index` (the root's spacing halved per level).
  double spacing(size_t index) const;

 private:
  std::vector<CopcNode> nodes_;
  std::vector<int32_t> parent_;
  std::vector<std::array<int32_t, 8>> children_;
  int32_t root_ = kNone;
  double rootSpacing_ = 0.0;
};

}  // namespace pcv
