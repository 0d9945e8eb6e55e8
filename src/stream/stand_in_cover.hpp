/// @brief A dataset's overview steps aside where the tiles it stands in for are drawn. The nodes
/// of a stand-in tree (SourceTree::standsIn: an overview whose points repeat the tiles') are
/// needed only while some visible tile root within their cube is not drawn yet; once every such
/// root is, the tiles show those places at least as densely, and the overview's copies would
/// only spend the point budget and be counted twice (QGIS likewise shows a VPC's overview only
/// while the tiles are not shown).
#pragma once

#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

#include "pcv/stream/node_selection.hpp"
#include "pcv/stream/octree_index.hpp"

namespace pcv {

class StandInCover {
 public:
  /// For each node of a stand-in tree, the roots of the other trees whose cubes meet its cube
  /// (every stand-in node against every root, once: an overview of hundreds of nodes over
  /// thousands of tiles is a few million box tests). `tree` must outlive the cover.
  explicit StandInCover(const OctreeIndex& tree);

  /// Whether the forest has stand-in nodes at all (else dropCovered does nothing).
  bool empty() const { return rootsUnder_.empty(); }

  /// Removes from `chosen` (a frame's choice, parents before children) each stand-in node whose
  /// cube holds other roots, every visible one of them chosen and `resident`, and none of whose
  /// children stays (a parent goes no earlier than its children, so no place of the overview
  /// loses points while the tiles there are still missing). Returns the nodes removed.
  std::vector<uint32_t> dropCovered(std::vector<uint32_t>& chosen,
                                    const NodeSelectionParams& params,
                                    const std::function<bool(uint32_t)>& resident) const;

 private:
  const OctreeIndex& tree_;
  std::vector<uint32_t> otherRoots_;                    // the roots of trees that do not stand in
  std::unordered_map<uint32_t, uint32_t> rootOrdinal_;  // node -> its index in otherRoots_
  std::unordered_map<uint32_t, std::vector<uint32_t>> rootsUnder_;  // stand-in node -> ordinals
};

}  // namespace pcv
