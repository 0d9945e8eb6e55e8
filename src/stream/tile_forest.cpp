// A dataset's tiles joined into one forest: hierarchies read on all cores, files left closed.
#include "pcv/stream/tile_forest.hpp"

#include <mutex>

#include "pcv/core/error.hpp"
#include "pcv/core/parallel.hpp"
#include "pcv/stream/tile_sources.hpp"

namespace pcv {

std::shared_ptr<const ForestNodeSource> openTileForest(const TileSet& tiles,
                                                       const TileForestOptions& options) {
  if (tiles.tiles.empty()) throw InputError("a dataset without tiles cannot be opened");
  const auto files = std::make_shared<OpenCopcFiles>(options.openCopcFiles, options.read);
  std::vector<std::shared_ptr<const NodeSource>> members(tiles.tiles.size());
  std::mutex failedMutex;
  size_t failedTile = members.size();
  std::string failure;
  parallelForEachDynamic(members.size(), [&](size_t i) {
    const Tile& tile = tiles.tiles[i];
    try {
      if (tile.format == TileFormat::Copc) {
        members[i] = std::make_shared<const CopcTileSource>(tile.path, files);
      } else {
        members[i] = std::make_shared<const WholeTileSource>(tile, options.read);
      }
    } catch (const Error& error) {
      const std::lock_guard lock(failedMutex);
      if (i < failedTile) {
        failedTile = i;
        failure = error.what();
      }
    }
  });
  if (failedTile < members.size()) throw InputError(failure);
  return std::make_shared<const ForestNodeSource>(std::move(members));
}

}  // namespace pcv
