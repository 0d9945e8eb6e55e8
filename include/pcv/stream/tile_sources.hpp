/// @brief The tiles of a dataset as node sources, none holding its file open between decodes: a
/// COPC tile is its octree (read once at open), its file reopened through a small shared cache
/// of open files when a node is decoded; a plain LAS or LAZ tile is one node, a lone root whose
/// decode reads the whole tile (LAZ chunks in parallel). tile_forest.hpp joins them as one forest.
#pragma once

#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>

#include "pcv/io/copc_file.hpp"
#include "pcv/io/point_cloud_reader.hpp"
#include "pcv/stream/node_source.hpp"
#include "pcv/stream/tile_set.hpp"

namespace pcv {

/// `cloud` with its points as offsets from `origin` (added in double, so each rounds once).
PointCloud pointsMovedTo(PointCloud cloud, const glm::dvec3& origin);

/// The attributes of `tile` that `options` ask for, in the tile's order.
std::vector<std::string> attributesRead(const Tile& tile, const ReadOptions& options);

/// The COPC files open now, the least recently used closed past `capacity`, so a dataset of any
/// number of tiles maps only a few at a time. A file reopened keeps the colour scale its first
/// opening decided (its root is not decoded again for it). Safe to use from several threads.
class OpenCopcFiles {
 public:
  explicit OpenCopcFiles(size_t capacity, ReadOptions options = {})
      : capacity_(capacity), options_(std::move(options)) {}
  /// The file at `path`, opened when it is not open. It stays usable for as long as the caller
  /// holds it, even once the cache closes its own reference.
  std::shared_ptr<const CopcFile> get(const std::string& path);
  size_t openCount() const;

 private:
  using Entry = std::pair<std::string, std::shared_ptr<const CopcFile>>;
  size_t capacity_;
  ReadOptions options_;
  mutable std::mutex mutex_;
  std::list<Entry> recent_;  // most recent first
  std::unordered_map<std::string, std::list<Entry>::iterator> byPath_;
  std::unordered_map<std::string, double> channelScales_;  // of every file opened once
};

/// A COPC tile: one tree, the nodes of its hierarchy in the same order (not thread-safe until
/// shared as const).
class CopcTileSource final : public NodeSource {
 public:
  /// Reads the tile's hierarchy pages (readCopcHierarchy: no point is decoded, the file is not
  /// kept open; `fetch` says what else of a remote file comes with them); `files` opens it when
  /// a node is decoded. The colours and attributes are those the header declares (`tile`) and
  /// `options` asks for, as for files opened through `files`.
  CopcTileSource(const Tile& tile, std::shared_ptr<OpenCopcFiles> files,
                 const ReadOptions& options = {}, const CopcHierarchyFetch& fetch = {});

  const NodeForest& forest() const override { return forest_; }
  const glm::dvec3& origin() const override { return origin_; }
  bool hasColor() const override { return hasColor_; }
  const std::vector<std::string>& attributeNames() const override { return attributes_; }
  PointCloud decodeNode(size_t node) const override;
  /// A remote tile's chunks fetched together (the file opened through `files` when it is not).
  void prefetchNodes(const std::vector<size_t>& nodes) const noexcept override;
  /// The node's chunk's records, for a local tile (its file opened through `files` when it is
  /// not); none for a hidden root.
  std::optional<NodeRecords> recordsOf(size_t node) const override;

  const std::string& path() const { return path_; }
  /// Its root's index in forest().nodes; forest().nodes.size() when the hierarchy has none.
  size_t rootNode() const;
  /// The root's points are drawn elsewhere (a dataset's overview): the root becomes an empty
  /// node (its children stream as before) and decodes to no point.
  void hideRoot();

 private:
  std::string path_;
  std::shared_ptr<OpenCopcFiles> files_;
  bool rootHidden_ = false;
  NodeForest forest_;
  glm::dvec3 origin_{0.0};
  bool hasColor_ = false;
  std::vector<std::string> attributes_;
};

/// A LAS or LAZ tile as one node: a lone root, its box the tile's header box.
class WholeTileSource final : public NodeSource {
 public:
  /// `shownElsewhere`: indices of the tile's records an overview draws (ascending), left out of
  /// the decode so that each point is drawn once.
  WholeTileSource(const Tile& tile, ReadOptions options, std::vector<uint64_t> shownElsewhere = {});

  const NodeForest& forest() const override { return forest_; }
  const glm::dvec3& origin() const override { return origin_; }
  bool hasColor() const override { return hasColor_; }
  const std::vector<std::string>& attributeNames() const override { return attributes_; }
  /// The whole tile but the points shown elsewhere, read through readPointCloud (LAZ chunks on
  /// all cores).
  PointCloud decodeNode(size_t node) const override;
  /// Every record of a local tile, where none is drawn elsewhere.
  std::optional<NodeRecords> recordsOf(size_t node) const override;

 private:
  std::string path_;
  ReadOptions options_;
  uint64_t declaredPoints_ = 0;
  std::vector<uint64_t> shownElsewhere_;
  NodeForest forest_;
  glm::dvec3 origin_{0.0};
  bool hasColor_ = false;
  std::vector<std::string> attributes_;
};

/// Points already in memory as one node (the overview of a dataset's LAS/LAZ tiles): a lone
/// root with the box given.
class MemoryNodeSource final : public NodeSource {
 public:
  MemoryNodeSource(PointCloud cloud, const Box3d& bounds);

  const NodeForest& forest() const override { return forest_; }
  const glm::dvec3& origin() const override { return cloud_.origin; }
  bool hasColor() const override { return cloud_.hasColor; }
  const std::vector<std::string>& attributeNames() const override { return attributes_; }
  PointCloud decodeNode(size_t node) const override;

 private:
  PointCloud cloud_;
  NodeForest forest_;
  std::vector<std::string> attributes_;
};

}  // namespace pcv
