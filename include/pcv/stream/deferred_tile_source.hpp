/// @brief A tile known from a dataset's index (a VPC item's box, count and CRS) that is read
/// only when the stream first wants it, so a dataset of any number of tiles opens without
/// touching one: until then it is one node, a stand-in root with the index's box and count that
/// the selection ranks by its size on screen; its decode, on a loader thread, reads the tile's
/// header, VLRs and hierarchy, then the tile streams as any tile (tile_sources.hpp) and its tree
/// joins the forest (NodeSource::growthSince). The tile's header wins where the index differs.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "pcv/io/point_cloud_reader.hpp"
#include "pcv/stream/forest_node_source.hpp"
#include "pcv/stream/tile_sources.hpp"

namespace pcv {

/// Points assumed in a tile's root until it is read (COPC writers keep roots to tens of
/// thousands of points): what the stand-in root costs in the point and memory budgets.
inline constexpr uint64_t kAssumedRootPoints = 65'536;

/// What every unread tile of a dataset shares, held once rather than once a tile (a dataset of
/// 100 000 tiles keeps little more than its Tile structs until tiles are read).
struct DeferredTiles {
  std::shared_ptr<OpenCopcFiles> files;  ///< the COPC files open now, shared with read tiles
  ReadOptions read;                      ///< what each decode reads
  /// The forest that owns this, for reads ahead and to hear that a tile grew (held weakly).
  std::weak_ptr<DeferredMembers> members;
  /// --skip-bad-tiles: a tile that cannot be read becomes an empty one, its growth carrying
  /// the warning (else its decode throws).
  bool skipWhenBroken = false;
  /// copcPointAttributes() that `read` asks for: what each unread tile says it carries.
  std::vector<std::string> attributes;
  /// Points of a tile's density stand-in per point its index states (at most 1, and so that
  /// all stand-ins together stay within a few hundred thousand points).
  double standInShare = 0.0;
};

/// Points in a tile's density stand-in at most.
inline constexpr uint64_t kStandInPointsPerTile = 1'024;

class DeferredTileSource final : public NodeSource,
                                 public std::enable_shared_from_this<DeferredTileSource> {
 public:
  /// Reads nothing. `member` is the tile's index among the members of the forest that owns
  /// `shared->members`; it is told there once the tile is read.
  DeferredTileSource(const Tile& tile, std::shared_ptr<const DeferredTiles> shared, size_t member);

  /// One node until read (then growthSince(0) holds the tile's tree).
  const NodeForest& forest() const override { return forest_; }
  const glm::dvec3& origin() const override { return origin_; }
  /// As the index assumes (Tile::fromIndex); a tile without colours is coloured as any.
  bool hasColor() const override { return hasColor_; }
  const std::vector<std::string>& attributeNames() const override { return shared_->attributes; }
  /// Node 0 is the tile's root. Until the tile is read, its decode starts the read (header,
  /// VLRs, hierarchy: DeferredMembers::readAhead) and gives the tile's density stand-in: points
  /// on a grid over the index's box at its middle height, as many as standInShare of its
  /// count, for the view to show until the tile's growth replaces them (readsOnDemand(0) is
  /// true while they are what node 0 decodes to). Once read, node 0 is the tile's root and
  /// nodes 1.. its other nodes in the order growthSince gives. Throws InputError naming the
  /// tile when it could not be read, or is not LAS, LAZ or COPC (a skipped tile: no point).
  PointCloud decodeNode(size_t node) const override;
  /// A remote tile not read yet is read ahead (DeferredMembers::readAhead: its header, VLRs and
  /// hierarchy, while the loader decodes other tiles); a read one fetches its nodes' chunks.
  void prefetchNodes(const std::vector<size_t>& nodes) const noexcept override;
  std::vector<TreeGrowth> growthSince(size_t known) const override;
  /// The tile's answer once it is read; none before.
  std::optional<NodeRecords> recordsOf(size_t node) const override;
  /// The root, until the tile is read.
  bool readsOnDemand(size_t node) const override { return node == 0 && !isRead(); }

  const std::string& path() const { return path_; }
  /// Whether the tile has been read (its header and hierarchy), or failed to be.
  bool isRead() const;

 private:
  /// The tile as read, reading it on the first call (one reader at a time); null for a tile
  /// skipped. A failure is kept and thrown again to every caller.
  const NodeSource* read() const;
  /// Starts read() on the forest's threads, once.
  void readAhead() const;
  PointCloud standIn() const;

  std::string path_;
  uint64_t indexPoints_ = 0;  // what the index says: compared with the header once read
  Box3d indexBounds_;
  TileFormat indexFormat_ = TileFormat::Copc;
  std::shared_ptr<const DeferredTiles> shared_;
  size_t member_ = 0;
  NodeForest forest_;
  glm::dvec3 origin_{0.0};
  bool hasColor_ = false;

  // Unread, read ahead (queued or reading), read: prefetchNodes asks without waiting for a read.
  enum class ReadState : int { Unread, Reading, Read };
  mutable std::atomic<ReadState> state_{ReadState::Unread};
  mutable std::mutex mutex_;
  mutable std::shared_ptr<const NodeSource> tile_;  // guarded: once read, never replaced
  mutable std::string failure_;                     // guarded: why it could not be read
  mutable std::vector<size_t> tileNode_;            // guarded: node here -> node of tile_
  mutable std::vector<TreeGrowth> growth_;          // guarded: the tree, once read
};

}  // namespace pcv
