/// @brief What streaming needs from a source of points: a forest of octrees (one or more roots)
/// with each node's cube and point count, one double origin, and any node's points decoded on
/// demand from several threads. A COPC file is one tree (copc_node_source.hpp); a set of tiles
/// is a forest (forest_node_source.hpp), where a tile that is not an octree is a lone root.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "pcv/core/bounds.hpp"
#include "pcv/core/point_cloud.hpp"
#include "pcv/io/copc_hierarchy.hpp"

namespace pcv {

/// One node of a forest: which tree it belongs to, its place in that tree, its cube, its points.
struct SourceNode {
  uint32_t tree = 0;        ///< index into NodeForest::trees
  CopcNodeKey key;          ///< level and cell in its tree (level 0: the tree's root)
  Box3d bounds;             ///< the node's cube (a lone root: its box), world coordinates
  uint64_t pointCount = 0;  ///< 0: an empty node whose children may hold some
};

/// What a tree of the forest says about all its nodes.
struct SourceTree {
  /// Typical distance between the root's points, in world units; halves at each level. 0 when
  /// unknown: the selection then assumes ~100 points across the root's cube.
  double rootSpacing = 0.0;
  /// Its points repeat the other trees' (a dataset's overview, as `pdal_wrench build_vpc
  /// --overview` writes: every 1000th point of the tiles): it stands in for them until they
  /// show, so streaming draws a node of it only while a visible root of another tree within its
  /// cube is not drawn.
  bool standsIn = false;
};

/// Every node of every tree, in any order; a node's parent is the node of its tree one level up
/// whose cell holds it. Node indices are what decodeNode() and the selection name.
struct NodeForest {
  std::vector<SourceTree> trees;
  std::vector<SourceNode> nodes;
};

/// A tree a source learned after it was opened: its root stood for data not read yet (a tile
/// that a dataset's index describes, read when the view first wanted it), and is now what the
/// data says. The root keeps its index; the tree's other nodes join the forest at the end.
struct TreeGrowth {
  size_t root = 0;           ///< the node that stood for the tree, in forest() (its index stays)
  SourceNode rootNode;       ///< what the root is now (its real cube and point count)
  double rootSpacing = 0.0;  ///< the tree's, as SourceTree::rootSpacing
  /// The tree's other nodes, numbered on from the forest as grown so far: forest().nodes.size()
  /// plus the nodes of every growth before this one.
  std::vector<SourceNode> nodes;
  std::string warning;  ///< where the data disagrees with what stood for it (empty: it agrees)
};

/// Which records of which file a decoded node's points are: point i is record first + i.
struct NodeRecords {
  std::string file;    ///< the path the source opened
  uint64_t first = 0;  ///< the record of the node's first point
  uint64_t count = 0;  ///< the node's points as decoded; a decode of another count does not map
};

/// The interface every streamable source implements. Implementations live in stream/ (adapters
/// over io/ readers such as CopcFile), so io/ stays below stream/ and knows nothing of it.
class NodeSource {
 public:
  virtual ~NodeSource() = default;
  /// The hierarchy as opened, fixed for the source's life (trees read later come through
  /// growthSince()).
  virtual const NodeForest& forest() const = 0;
  /// The world position every decoded node's points are offsets from.
  virtual const glm::dvec3& origin() const = 0;
  /// Whether the points carry colours of their own (else a colour map colours them).
  virtual bool hasColor() const = 0;
  /// The attributes each decoded node carries, in order.
  virtual const std::vector<std::string>& attributeNames() const = 0;
  /// The points of forest().nodes[node], as offsets from origin() (PointCloud::origin is
  /// origin()), with the colours and attributes above. Safe to call from several threads at
  /// once. Throws pcv::Error (InputError naming the file, node and byte for broken data).
  virtual PointCloud decodeNode(size_t node) const = 0;
  /// Hint: these nodes are decoded soon (most wanted first). A source read over HTTP fetches
  /// their bytes together, several requests in flight; others ignore it. Never throws: a fault
  /// is met again, and reported, by decodeNode.
  virtual void prefetchNodes(const std::vector<size_t>& nodes) const noexcept { (void)nodes; }
  /// Whether decoding `node` reads data the source has not opened yet (the stand-in root of a
  /// tile known from a dataset's index): a stream does not decode such a node at open.
  virtual bool readsOnDemand(size_t node) const {
    (void)node;
    return false;
  }
  /// Where `node`'s decoded points are consecutive records of one local file in record order (a
  /// COPC node's chunk, a whole LAS tile), which; else none (an overview's points gathered from
  /// several tiles, a tile some of whose points are drawn elsewhere, a tile not read yet). What
  /// lets work done on files (a ground filter's classes, per record) show on streamed nodes.
  virtual std::optional<NodeRecords> recordsOf(size_t node) const {
    (void)node;
    return std::nullopt;
  }
  /// The trees grown since the first `known` (in order; none for a source whose forest is whole
  /// from the start). Node indices past forest().nodes.size() are those the growths give, and
  /// decodeNode() takes them once they are returned here. Safe to call from several threads;
  /// each caller keeps its own count, so several clouds may stream one source.
  virtual std::vector<TreeGrowth> growthSince(size_t known) const {
    (void)known;
    return {};
  }
};

}  // namespace pcv
