// A dataset's tiles joined into one forest: hierarchies read on all cores, files left closed.
#include "pcv/stream/tile_forest.hpp"

#include <mutex>

#include "pcv/core/error.hpp"
#include "pcv/core/parallel.hpp"
#include "pcv/io/point_sample.hpp"
#include "pcv/stream/tile_sources.hpp"

namespace pcv {

std::shared_ptr<const ForestNodeSource> openTileForest(const TileSet& tiles,
                                                       const TileForestOptions& options) {
  if (tiles.tiles.empty()) throw InputError("a dataset without tiles cannot be opened");
  const auto files = std::make_shared<OpenCopcFiles>(options.openCopcFiles, options.read);
  std::vector<std::shared_ptr<const NodeSource>> members(tiles.tiles.size());
  std::vector<PointSample> samples(tiles.tiles.size());
  std::mutex failedMutex;
  size_t failedTile = members.size();
  std::string failure;
  parallelForEachDynamic(members.size(), [&](size_t i) {
    const Tile& tile = tiles.tiles[i];
    try {
      if (tile.format == TileFormat::Copc) {
        members[i] = std::make_shared<const CopcTileSource>(tile.path, files);
      } else {
        std::vector<uint64_t> sampled;
        if (options.overview) {
          samples[i] = readPointSample(tile.path, options.lasSamplePoints, options.read);
          sampled = samples[i].recordIndices;
        }
        members[i] =
            std::make_shared<const WholeTileSource>(tile, options.read, std::move(sampled));
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
  PointCloud overview;
  Box3d overviewBounds;
  bool first = true;
  for (size_t i = 0; i < samples.size(); ++i) {
    if (tiles.tiles[i].format == TileFormat::Copc || !options.overview) continue;
    overviewBounds.extend(tiles.tiles[i].bounds);
    if (first) {
      overview = std::move(samples[i].cloud);
      first = false;
    } else {
      appendPointCloud(overview, samples[i].cloud);
    }
  }
  if (!first) {
    members.insert(members.begin(),
                   std::make_shared<const MemoryNodeSource>(std::move(overview), overviewBounds));
  }
  return std::make_shared<const ForestNodeSource>(std::move(members));
}

}  // namespace pcv
