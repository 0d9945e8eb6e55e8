// A dataset's tiles joined into one forest: hierarchies read on all cores, files left closed.
#include "pcv/stream/tile_forest.hpp"

#include <algorithm>

#include "pcv/core/error.hpp"
#include "pcv/io/point_sample.hpp"
#include "pcv/io/remote_source.hpp"
#include "pcv/stream/deferred_tile_source.hpp"
#include "pcv/stream/tile_sources.hpp"
#include "each_tile.hpp"

namespace pcv {
namespace {

/// The samples as one cloud at the first one's origin, with the attributes all of them carry, in
/// one allocation (appending one by one would copy the growing cloud once per tile).
PointCloud mergeSamples(const std::vector<const PointCloud*>& samples) {
  PointCloud merged;
  merged.origin = samples.front()->origin;
  merged.hasColor = true;
  size_t total = 0;
  for (const PointCloud* sample : samples) {
    total += sample->size();
    merged.hasColor = merged.hasColor && sample->hasColor;
  }
  for (const ScalarAttribute& attribute : samples.front()->attributes) {
    const bool everywhere = std::all_of(samples.begin(), samples.end(), [&](const PointCloud* s) {
      return std::any_of(s->attributes.begin(), s->attributes.end(),
                         [&](const ScalarAttribute& a) { return a.name == attribute.name; });
    });
    if (everywhere) merged.attributes.push_back(attribute.emptyLike());
  }
  merged.points.resize(total);
  for (ScalarAttribute& attribute : merged.attributes) attribute.resize(total);
  size_t at = 0;
  for (const PointCloud* sample : samples) {
    const glm::dvec3 shift = sample->origin - merged.origin;
    for (size_t i = 0; i < sample->size(); ++i) {
      Point point = sample->points[i];
      point.x = float(double(point.x) + shift.x);
      point.y = float(double(point.y) + shift.y);
      point.z = float(double(point.z) + shift.z);
      merged.points[at + i] = point;
    }
    for (ScalarAttribute& attribute : merged.attributes) {
      for (const ScalarAttribute& from : sample->attributes) {
        if (from.name != attribute.name) continue;
        for (uint64_t i = 0; i < from.size(); ++i) attribute.setValue(at + i, from.value(i));
      }
    }
    at += sample->size();
  }
  return merged;
}

/// forEachTile over `tiles`, on as many threads as requests may be in flight when some are
/// remote: their hierarchies and roots wait on round trips, not on cores. Tiles known from the
/// index are read later, when wanted: they do not make the work remote.
template <typename Body>
void forEachTileOf(const TileSet& tiles, const Body& body) {
  const bool remote = std::any_of(tiles.tiles.begin(), tiles.tiles.end(), [](const Tile& tile) {
    return !tile.fromIndex && isRemoteLocation(tile.path);
  });
  if (remote) {
    forEachTileOnThreads(tiles.tiles.size(), size_t(std::max(1, remoteOptions().connections)), body);
  } else {
    forEachTile(tiles.tiles.size(), body);
  }
}

/// The forest's side of its tiles known from the index: reads ahead on as many threads as
/// requests may be in flight.
std::shared_ptr<DeferredMembers> deferredMembers() {
  return std::make_shared<DeferredMembers>(unsigned(std::max(1, remoteOptions().connections)));
}

/// The density stand-ins of all unread tiles together, at most about this many points.
constexpr uint64_t kStandInPoints = 250'000;

/// The tiles' side: what they share.
std::shared_ptr<const DeferredTiles> deferredTiles(
    const TileSet& tiles, const std::shared_ptr<OpenCopcFiles>& files,
    const TileForestOptions& options, const std::shared_ptr<DeferredMembers>& members) {
  Tile assumed{.attributes = copcPointAttributes()};
  uint64_t indexPoints = 0;
  for (const Tile& tile : tiles.tiles) indexPoints += tile.fromIndex ? tile.pointCount : 0;
  return std::make_shared<const DeferredTiles>(DeferredTiles{
      .files = files,
      .read = options.read,
      .members = members,
      .skipWhenBroken = tiles.skipBadTiles,
      .attributes = attributesRead(assumed, options.read),
      .standInShare =
          std::min(1.0, double(kStandInPoints) / double(std::max<uint64_t>(1, indexPoints)))});
}

/// The COPC tiles' roots decoded into `samples` (on all cores) and hidden in their trees, when
/// they hold `limit` points at most in all; else their chunks' first points.
void addCopcRoots(const TileSet& tiles,
                  const std::vector<std::shared_ptr<CopcTileSource>>& copcTiles, uint64_t limit,
                  const ReadOptions& read, std::vector<PointSample>& samples) {
  uint64_t rootPoints = 0;
  for (const auto& tile : copcTiles) {
    if (!tile || tile->rootNode() == tile->forest().nodes.size()) continue;
    rootPoints += tile->forest().nodes[tile->rootNode()].pointCount;
  }
  if (rootPoints == 0) return;
  if (rootPoints > limit) {
    // Too many to decode at open: each tile's chunks' first points instead (a COPC file is LAZ,
    // whose chunks store their first point uncompressed), so the first image shows every tile.
    // They are drawn again with their nodes, on the same pixels.
    forEachTileOf(tiles, [&](size_t i) {
      if (copcTiles[i]) samples[i] = readPointSample(copcTiles[i]->path(), 0, read);
    });
    return;
  }
  forEachTileOf(tiles, [&](size_t i) {
    const auto& tile = copcTiles[i];
    if (!tile || tile->rootNode() == tile->forest().nodes.size()) return;
    samples[i].cloud = tile->decodeNode(tile->rootNode());
  });
  for (const auto& tile : copcTiles) {
    if (tile) tile->hideRoot();
  }
}

/// The forest of `tiles` whose overview files come first, each a COPC tree: no tile is sampled
/// and no root hidden, so opening reads the tiles' hierarchies only.
std::shared_ptr<const ForestNodeSource> openWithOverviewFiles(
    const TileSet& tiles, const std::shared_ptr<OpenCopcFiles>& files,
    const TileForestOptions& options) {
  const TileSet overviews = describeTiles(tiles.overviews);
  const size_t first = overviews.tiles.size();
  std::vector<std::shared_ptr<const NodeSource>> members(first + tiles.tiles.size());
  const auto deferred = deferredMembers();
  const auto shared = deferredTiles(tiles, files, options, deferred);
  forEachTile(members.size(), [&](size_t i) {
    const Tile& tile = i < first ? overviews.tiles[i] : tiles.tiles[i - first];
    if (tile.fromIndex) {
      members[i] = std::make_shared<const DeferredTileSource>(tile, shared, i);
    } else if (tile.format == TileFormat::Copc) {
      members[i] = std::make_shared<const CopcTileSource>(tile, files, options.read);
    } else if (i < first) {
      throw InputError(tile.path + ": an overview must be a COPC file, not " +
                       tileFormatName(tile.format));
    } else {
      members[i] = std::make_shared<const WholeTileSource>(tile, options.read);
    }
  });
  // The overview files' points repeat the tiles': they step aside where the tiles are drawn.
  return std::make_shared<const ForestNodeSource>(std::move(members), first, deferred);
}

}  // namespace

std::shared_ptr<const ForestNodeSource> openTileForest(const TileSet& tiles,
                                                       const TileForestOptions& options) {
  if (tiles.tiles.empty()) throw InputError("a dataset without tiles cannot be opened");
  const auto files = std::make_shared<OpenCopcFiles>(options.openCopcFiles, options.read);
  if (options.overview && options.overviewAssets && !tiles.overviews.empty()) {
    return openWithOverviewFiles(tiles, files, options);
  }
  std::vector<std::shared_ptr<const NodeSource>> members(tiles.tiles.size());
  std::vector<PointSample> samples(tiles.tiles.size());
  const uint64_t lasTiles = std::max<uint64_t>(1, tiles.count(TileFormat::Las));
  const uint64_t lasSamplePoints =
      std::min(options.lasSamplePoints, std::max<uint64_t>(16, options.lasSampleTotal / lasTiles));
  std::vector<std::shared_ptr<CopcTileSource>> copcTiles(tiles.tiles.size());
  forEachTileOf(tiles, [&](size_t i) {
    const Tile& tile = tiles.tiles[i];
    if (tile.fromIndex) return;  // read when the stream wants it (below)
    if (tile.format == TileFormat::Copc) {
      copcTiles[i] = std::make_shared<CopcTileSource>(tile, files, options.read);
      members[i] = copcTiles[i];
      return;
    }
    std::vector<uint64_t> sampled;
    if (options.overview) {
      samples[i] = readPointSample(tile.path, lasSamplePoints, options.read);
      sampled = samples[i].recordIndices;
    }
    members[i] = std::make_shared<const WholeTileSource>(tile, options.read, std::move(sampled));
  });
  if (options.overview) {
    addCopcRoots(tiles, copcTiles, options.copcRootPointLimit, options.read, samples);
  }
  std::vector<const PointCloud*> sampled;
  Box3d overviewBounds;
  for (size_t i = 0; i < samples.size(); ++i) {
    if (!options.overview || tiles.tiles[i].fromIndex ||
        (copcTiles[i] && samples[i].cloud.size() == 0)) {
      continue;
    }
    overviewBounds.extend(tiles.tiles[i].bounds);
    sampled.push_back(&samples[i].cloud);
  }
  if (!sampled.empty()) {
    members.insert(members.begin(),
                   std::make_shared<const MemoryNodeSource>(mergeSamples(sampled), overviewBounds));
  }
  // The tiles known from the index: a stand-in root each, read when first wanted. Made here,
  // once every member's place in the forest is known.
  const size_t firstTile = members.size() - tiles.tiles.size();
  const auto deferred = deferredMembers();
  const auto shared = deferredTiles(tiles, files, options, deferred);
  for (size_t i = 0; i < tiles.tiles.size(); ++i) {
    if (!tiles.tiles[i].fromIndex) continue;
    members[firstTile + i] =
        std::make_shared<const DeferredTileSource>(tiles.tiles[i], shared, firstTile + i);
  }
  return std::make_shared<const ForestNodeSource>(std::move(members), 0, deferred);
}

}  // namespace pcv
