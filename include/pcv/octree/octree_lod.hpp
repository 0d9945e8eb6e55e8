/// @brief The level-of-detail octree of points sorted by key (pcv/octree/octree_keys.hpp): which
/// nodes exist (a node splits while its cube holds more than a maximum of points), and which node
/// holds each point (bottom-up: a node keeps, of its children's points, the one nearest the centre
/// of each cell of its 128^3 grid, so each level is an even sample of the one below). The sorting
/// and sampling sit behind OctreeLodSampler so that the CUDA builder can stand in for the CPU.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "pcv/core/uninitialized_vector.hpp"

namespace pcv {

struct LodNode {
  int32_t level = 0;
  uint64_t key = 0;    ///< nodeKeyAt(key of any of its points, level)
  uint64_t begin = 0;  ///< its cube's points: positions [begin, end) in key order
  uint64_t end = 0;
  int32_t parent = -1;  ///< index in LodTree::nodes; -1 for the root
  bool leaf = false;    ///< not split: it starts with every point of its cube
};

struct LodTree {
  std::vector<LodNode> nodes;  ///< depth first, the root first, children in key order
};

/// The tree over `sortedKeys`, whose points all lie in the node (`rootLevel`, `rootKey`): a node
/// is a leaf when its cube holds at most `maxPointsPerNode` points or it is at kMaxOctreeLevel.
LodTree buildLodTree(std::span<const uint64_t> sortedKeys, int rootLevel, uint64_t rootKey,
                     uint64_t maxPointsPerNode);

/// A root at (`rootLevel`, `rootKey`) over children built apart, each of which already holds
/// its points: `childEnds[i]` is where child i's points end in `sortedKeys`. The root samples
/// them; the children are leaves of this tree.
LodTree lodTreeOverChildren(std::span<const uint64_t> sortedKeys, int rootLevel, uint64_t rootKey,
                            std::span<const uint64_t> childEnds);

/// The points each node holds, as positions in key order: node n's are
/// positions[offsets[n] .. offsets[n + 1]), ascending.
struct LodNodePoints {
  std::vector<uint64_t> offsets;
  UninitializedVector<uint32_t> positions;

  uint64_t countOf(size_t node) const { return offsets[node + 1] - offsets[node]; }
  std::span<const uint32_t> of(size_t node) const {
    return {positions.data() + offsets[node], size_t(countOf(node))};
  }
};

/// Groups the points by the node holding them (`holderLevel` from OctreeLodSampler).
LodNodePoints lodNodePoints(const LodTree& tree, std::span<const uint8_t> holderLevel);

/// Sorts keys and assigns points to nodes. Implementations give identical outputs.
class OctreeLodSampler {
 public:
  virtual ~OctreeLodSampler() = default;
  virtual const char* name() const = 0;

  /// `sortedKeys` gets `keys` in ascending order and `order[i]` the index in `keys` of
  /// sortedKeys[i]; equal keys may come in any order (the caller orders them by record).
  /// At most 2^32 - 1 keys.
  virtual void sortKeys(std::span<const uint64_t> keys, std::span<uint64_t> sortedKeys,
                        std::span<uint32_t> order) = 0;

  /// `holderLevel[i]` gets the level of the node holding sorted point i: the deepest node of
  /// `tree` containing it (a leaf) unless a node above picked it. Of the points its children
  /// hold, each internal node picks, in every cell of its sampling grid, the one with the least
  /// sampleCellDistance, the first in key order among equals; the nodes below pick first.
  virtual void sampleLevels(std::span<const uint64_t> sortedKeys, const LodTree& tree,
                            std::span<uint8_t> holderLevel) = 0;
};

/// The CPU implementation, on all cores (pcv/core/parallel.hpp).
std::unique_ptr<OctreeLodSampler> makeCpuOctreeLodSampler();

}  // namespace pcv
