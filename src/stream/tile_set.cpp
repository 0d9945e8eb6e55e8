// The header index of a dataset: every tile's header read on all cores, one file open per thread.
#include "pcv/stream/tile_set.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <optional>
#include <unordered_map>

#include "pcv/core/error.hpp"
#include "pcv/core/text_case.hpp"
#include "pcv/io/point_cloud_reader.hpp"
#include "pcv/io/remote_source.hpp"
#include "pcv/io/uri_reference.hpp"
#include "pcv/io/virtual_point_cloud.hpp"
#include "each_tile.hpp"

namespace pcv {
namespace {

TileFormat tileFormatOf(const FileSummary& summary, const std::string& path) {
  if (summary.format == "COPC") return TileFormat::Copc;
  if (summary.format == "LAZ") return TileFormat::Laz;
  if (summary.format == "LAS") return TileFormat::Las;
  throw InputError(locationForMessages(path) + ": a " + summary.format +
                   " file cannot be a tile of a dataset (tiles are LAS, LAZ or COPC files)");
}

}  // namespace

Tile describeTile(const std::string& path) {
  const FileSummary summary = describePointFile(path);
  Tile tile{.path = path,
            .format = tileFormatOf(summary, path),
            .pointCount = summary.pointCount,
            .bounds = summary.worldBounds,
            .origin = summary.origin,
            .hasColor = summary.hasColor,
            .attributes = summary.attributes,
            .crs = std::make_shared<const CoordinateSystem>(summary.crs)};
  return tile;
}

const CoordinateSystem& Tile::coordinateSystem() const {
  static const CoordinateSystem none;
  return crs ? *crs : none;
}

const std::vector<std::string>& copcPointAttributes() {
  // COPC files hold point formats 6, 7 or 8: 6's fields are those all three carry.
  static const std::vector<std::string> names = lasPointAttributes(6);
  return names;
}

size_t TileSet::count(TileFormat format) const {
  return size_t(std::count_if(tiles.begin(), tiles.end(),
                              [format](const Tile& tile) { return tile.format == format; }));
}

const char* tileFormatName(TileFormat format) {
  switch (format) {
    case TileFormat::Copc:
      return "COPC";
    case TileFormat::Laz:
      return "LAZ";
    case TileFormat::Las:
      return "LAS";
  }
  return "?";
}

namespace {

/// The extension of `path`, in lower case; a URL's is its path's, without query or fragment.
std::string extensionOf(const std::string& path) {
  const std::string name = isRemoteLocation(path) ? splitUriReference(path).path : path;
  return lowerCase(std::filesystem::path(name).extension().string());
}

/// Whether `path` names a QGIS virtual point cloud, by its extension (any case); a URL's by the
/// extension of its path, so that "https://host/index.vpc?token=..." names one.
bool namesVpc(const std::string& path) {
  return extensionOf(path) == ".vpc";
}

}  // namespace

bool hasTileExtension(const std::string& path) {
  const std::string extension = extensionOf(path);
  return extension == ".las" || extension == ".laz";  // .copc.laz ends in .laz
}

namespace {

/// The tile of a VPC item from the item alone, when it states its count and box and names a
/// COPC file, or a LAZ or LAS file on the web (whose header would cost a round trip each before
/// the first image; local ones keep the parallel header index, which samples them at once): its
/// header (and a COPC tile's VLRs and hierarchy) are read when the stream wants it. A `.laz`
/// name may be COPC: the header decides.
std::optional<Tile> tileFromIndex(const VpcTile& item,
                                  const std::shared_ptr<const CoordinateSystem>& crs) {
  if (!item.pointCount || !item.nativeBounds || item.nativeBounds->empty()) return std::nullopt;
  const std::string name =
      isRemoteLocation(item.location) ? splitUriReference(item.location).path : item.location;
  const std::string lower = lowerCase(name);
  const bool remote = isRemoteLocation(item.location);
  TileFormat format = TileFormat::Copc;
  if (lower.ends_with(".copc.laz")) {
    format = TileFormat::Copc;
  } else if (remote && lower.ends_with(".laz")) {
    format = TileFormat::Laz;
  } else if (remote && lower.ends_with(".las")) {
    format = TileFormat::Las;
  } else {
    return std::nullopt;
  }
  return Tile{.path = item.location,
              .format = format,
              .pointCount = *item.pointCount,
              .bounds = *item.nativeBounds,
              .origin = glm::round(item.nativeBounds->center()),
              .hasColor = true,  // point formats 7 and 8; a tile of format 6 says so when read
              .crs = crs,
              .fromIndex = true};
}

/// The overviews a parsed VPC at `path` names that a dataset opens with (local COPC files that
/// exist; a remote VPC's are URLs, which it opens without), appended to `overviews` once each.
void appendOverviews(const std::string& path, const VirtualPointCloud& vpc,
                     std::vector<std::string>& overviews) {
  if (isRemoteLocation(path)) return;
  for (const VpcTile& tile : vpc.tiles) {
    for (const std::string& overview : tile.overviews) {
      std::error_code error;
      if (isUrl(overview) || !std::filesystem::is_regular_file(overview, error)) continue;
      if (!lowerCase(overview).ends_with(".copc.laz")) continue;
      if (std::find(overviews.begin(), overviews.end(), overview) == overviews.end()) {
        overviews.push_back(overview);
      }
    }
  }
}

/// The tiles of the VPC at `path` (local paths or URLs), in its order, appended to `files`; an
/// item whose file an earlier item of the VPC names already is left out with a warning, so the
/// tile is drawn once. With `index`, the items that describe their tiles enough go there; with
/// `overviews`, the overviews it names (appendOverviews), from the same parse.
void appendVpcTiles(const std::string& path, std::vector<std::string>& files,
                    std::vector<std::string>* warnings, TileIndex* index,
                    std::vector<std::string>* overviews) {
  const VirtualPointCloud vpc = readVirtualPointCloud(path);
  if (overviews) appendOverviews(path, vpc, *overviews);
  if (vpc.tiles.empty()) {
    throw InputError(locationForMessages(path) + ": the virtual point cloud lists no tile");
  }
  // The VPC's coordinate systems, each held once for every tile that states it.
  std::vector<std::shared_ptr<const CoordinateSystem>> systems;
  for (const CoordinateSystem& crs : vpc.coordinateSystems) {
    systems.push_back(std::make_shared<const CoordinateSystem>(crs));
  }
  std::unordered_map<std::string, size_t> firstItem;
  size_t duplicates = 0;
  std::string example;
  for (size_t i = 0; i < vpc.tiles.size(); ++i) {
    const auto [found, added] = firstItem.try_emplace(vpc.tiles[i].location, i);
    if (added) {
      files.push_back(vpc.tiles[i].location);
      if (!index) continue;
      if (std::optional<Tile> tile = tileFromIndex(vpc.tiles[i], systems.at(vpc.tiles[i].crsIndex))) {
        index->insert_or_assign(vpc.tiles[i].location, std::move(*tile));
      }
    } else if (duplicates++ == 0) {
      example = "item " + std::to_string(i) + " names the file of item " +
                std::to_string(found->second) + ", " + locationForMessages(found->first);
    }
  }
  if (duplicates > 0 && warnings) {
    warnings->push_back(locationForMessages(path) + ": " + std::to_string(duplicates) +
                        (duplicates == 1 ? " item names a tile" : " items name tiles") +
                        " listed before (" + example + "); each tile is read once");
  }
}

}  // namespace

std::vector<std::string> datasetOverviews(const std::vector<std::string>& paths) {
  std::vector<std::string> overviews;
  for (const std::string& path : paths) {
    // A remote VPC's overviews are URLs, which a dataset opens without: it is not read again.
    if (!namesVpc(path) || isRemoteLocation(path)) continue;
    appendOverviews(path, readVirtualPointCloud(path), overviews);
  }
  return overviews;
}

bool namesDataset(const std::vector<std::string>& paths) {
  return std::any_of(paths.begin(), paths.end(), [](const std::string& path) {
    if (isRemoteLocation(path)) return namesVpc(path);  // a URL is never a local folder
    std::error_code error;
    return std::filesystem::is_directory(path, error) || namesVpc(path);
  });
}

std::vector<std::string> expandTilePaths(const std::vector<std::string>& paths,
                                         std::vector<std::string>* warnings, TileIndex* index,
                                         std::vector<std::string>* overviews) {
  std::vector<std::string> files;
  for (const std::string& path : paths) {
    std::error_code error;
    if (namesVpc(path)) {  // a local file or a URL
      appendVpcTiles(path, files, warnings, index, overviews);
      continue;
    }
    if (isRemoteLocation(path) || !std::filesystem::is_directory(path, error)) {
      files.push_back(path);
      continue;
    }
    std::vector<std::string> found;
    for (auto it = std::filesystem::recursive_directory_iterator(
             path, std::filesystem::directory_options::skip_permission_denied, error);
         !error && it != std::filesystem::recursive_directory_iterator(); it.increment(error)) {
      if (it->is_regular_file(error) && hasTileExtension(it->path().string())) {
        found.push_back(it->path().string());
      }
    }
    if (error) throw InputError(path + ": cannot list the folder: " + error.message());
    if (found.empty())
      throw InputError(path + ": the folder holds no .las, .laz or .copc.laz file");
    std::sort(found.begin(), found.end());
    files.insert(files.end(), found.begin(), found.end());
  }
  return files;
}

TileSet describeTiles(const std::vector<std::string>& files, std::vector<std::string>* skipped,
                      const TileIndex* index) {
  TileSet set;
  std::vector<Tile> tiles(files.size());
  // With `skipped`, a tile that fails is remembered instead of ending the open.
  std::vector<std::string> failures(skipped ? files.size() : 0);
  // The tiles the index describes are not read; only the others' headers are.
  std::vector<size_t> toRead;
  for (size_t i = 0; i < files.size(); ++i) {
    const auto known = index ? index->find(files[i]) : TileIndex::const_iterator{};
    if (index && known != index->end()) {
      tiles[i] = known->second;
    } else {
      toRead.push_back(i);
    }
  }
  const auto describe = [&](size_t at) {
    const size_t i = toRead[at];
    if (!skipped) {
      tiles[i] = describeTile(files[i]);
      return;
    }
    try {
      tiles[i] = describeTile(files[i]);
    } catch (const Error& error) {
      failures[i] = error.what();
    }
  };
  const bool remote = std::any_of(toRead.begin(), toRead.end(),
                                  [&](size_t i) { return isRemoteLocation(files[i]); });
  if (remote) {
    // Remote headers wait on round trips: as many at once as requests may be in flight.
    forEachTileOnThreads(toRead.size(), size_t(std::max(1, remoteOptions().connections)), describe);
  } else {
    forEachTile(toRead.size(), describe);
  }
  for (size_t i = 0; i < tiles.size(); ++i) {
    if (skipped && !failures[i].empty()) {
      skipped->push_back("tile skipped (--skip-bad-tiles): " + failures[i]);
      continue;
    }
    set.tiles.push_back(std::move(tiles[i]));
  }
  if (set.tiles.empty() && !files.empty()) {
    throw InputError("no tile of the dataset could be read (" + std::to_string(files.size()) +
                     " tried); the first failed with: " + failures.front());
  }
  for (const Tile& tile : set.tiles) {
    set.pointCount += tile.pointCount;
    set.bounds.extend(tile.bounds);
  }
  if (!set.tiles.empty()) set.crs = set.tiles.front().coordinateSystem();
  return set;
}

void requireOneCoordinateSystem(const TileSet& set) {
  if (set.tiles.empty()) return;
  const Tile& first = set.tiles.front();
  const auto says = [](const Tile& tile) {
    return tile.coordinateSystem().known() ? "is in " + tile.coordinateSystem().label()
                                           : std::string("states no coordinate system");
  };
  for (const Tile& tile : set.tiles) {
    // Tiles of one VPC share their CRS: the same object is the same CRS.
    if (tile.crs == first.crs || tile.coordinateSystem().sameAs(first.coordinateSystem())) {
      continue;
    }
    throw InputError(
        "the tiles are in different coordinate systems: " + locationForMessages(first.path) + " " +
        says(first) + "; " + locationForMessages(tile.path) + " " + says(tile) +
        " (compared: their WKT records, or their EPSG codes where neither has WKT)");
  }
}

TileSet readTileSet(const std::vector<std::string>& files) {
  TileSet set = describeTiles(files);
  requireOneCoordinateSystem(set);
  return set;
}

}  // namespace pcv
