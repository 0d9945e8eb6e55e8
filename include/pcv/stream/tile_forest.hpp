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
};

/// The forest of `tiles` (in their order; the forest's origin is the first tile's). Reads every
/// COPC tile's hierarchy, on all cores: every page of it, since a NodeSource's forest is fixed
/// for its life (about 80 bytes a node). Throws InputError when a tile set is empty or a COPC
/// tile's hierarchy is broken.
std::shared_ptr<const ForestNodeSource> openTileForest(const TileSet& tiles,
                                                       const TileForestOptions& options = {});

}  // namespace pcv
