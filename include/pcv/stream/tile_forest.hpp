/// @brief A dataset's tiles as one forest of octrees (ForestNodeSource), so they stream under one
/// point budget and one GPU pool with one ranking of nodes across all tiles: COPC tiles are their
/// octrees, plain LAS/LAZ tiles a lone root each (tile_sources.hpp).
#pragma once

#include <memory>

#include "pcv/io/point_cloud_reader.hpp"
#include "pcv/stream/forest_node_source.hpp"
#include "pcv/stream/tile_set.hpp"

namespace pcv {

struct TileForestOptions {
  ReadOptions read;           ///< what each tile's decode reads (attributes, colours)
  size_t openCopcFiles = 64;  ///< COPC files mapped at once, at most (closed least recent first)
  /// The LAS/LAZ tiles' overview as the forest's first tree (so it is resident with the first
  /// image): each LAZ tile's chunk first points, about `lasSamplePoints` records of each LAS tile.
  bool overview = true;
  uint64_t lasSamplePoints = 256;
  /// The LAS tiles' samples together, at most: with many tiles each gives fewer records (16 at
  /// least), so the overview of 10 000 small tiles is not a third of their points, all laid out
  /// before the first image.
  uint64_t lasSampleTotal = 500'000;
  /// The COPC tiles' root nodes join the overview (decoded at open, on all cores) when they hold
  /// this many points at most in all; beyond, the roots stream as any node. Decoding is what the
  /// first image waits for: 250 k layered LAZ points take about 0.5 s on 2 busy cores. Past the
  /// limit, the first points of every COPC tile's chunks join the overview instead.
  uint64_t copcRootPointLimit = 250'000;
  /// The dataset's overview files (TileSet::overviews), when it has some, are the forest's
  /// first trees instead of the samples and roots above: one COPC tree each, whose root is the
  /// first image and whose coarse nodes show the dataset from afar at the cost of reading
  /// them, not every tile. Their points repeat about one in a thousand of the tiles': they
  /// stand in for the tiles (SourceTree::standsIn), drawn only where the tiles are not yet.
  bool overviewAssets = true;
};

/// The forest of `tiles`: the overview (its overview files, else when asked for and there are
/// LAS/LAZ tiles or COPC roots within the limit), then the
/// tiles in their order; the forest's origin is its first tree's. Reads every COPC tile's
/// hierarchy and every LAS/LAZ tile's sample, on all cores: every hierarchy page (about 80 bytes
/// a node). Tiles known from the index (Tile::fromIndex) are not read: each is a stand-in root
/// read when the stream first wants it (deferred_tile_source.hpp), its tree then grown into the
/// forest (NodeSource::growthSince); they take no part in the overview. Throws InputError when
/// a tile set is empty or a tile's hierarchy or chunk table is broken.
std::shared_ptr<const ForestNodeSource> openTileForest(const TileSet& tiles,
                                                       const TileForestOptions& options = {});

/// The member of openTileForest(tiles)'s forest that tile 0 is (the overview's members come
/// first); tile i is member firstTileMember(...) + i.
inline size_t firstTileMember(const ForestNodeSource& forest, const TileSet& tiles) {
  return forest.memberCount() - tiles.tiles.size();
}

}  // namespace pcv
