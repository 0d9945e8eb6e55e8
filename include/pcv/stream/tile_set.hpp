/// @brief A dataset of tiles (a folder, a list of LAS/LAZ/COPC files) described from the tiles'
/// headers alone, read in parallel with each file opened only while its header is read, so
/// thousands of tiles open fast and under a small limit of open files. What the forest of a
/// dataset (tile_forest.hpp) and `pcv info` start from; a VPC's items are one more list of tiles.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include <glm/glm.hpp>

#include "pcv/core/bounds.hpp"
#include "pcv/io/coordinate_system.hpp"

namespace pcv {

enum class TileFormat {
  Copc,  ///< an octree: streams node by node
  Laz,   ///< plain LAZ: one node, its chunks decoded in parallel
  Las,   ///< plain LAS: one node
};

/// What a tile's header says.
struct Tile {
  std::string path;
  TileFormat format = TileFormat::Las;
  uint64_t pointCount = 0;
  Box3d bounds;  ///< as the header declares them
  glm::dvec3 origin{0.0};
  bool hasColor = false;
  std::vector<std::string> attributes;
  /// FileSummary::crs (compared between tiles); shared, as the tiles of one VPC state one CRS
  /// whose WKT may be kilobytes: 100 000 tiles hold it once. Null: none stated.
  std::shared_ptr<const CoordinateSystem> crs;
  /// Known from a dataset's index (a VPC item's pc:count, proj:bbox and CRS, the format by the
  /// file's name) without reading the tile: `hasColor` is assumed and `attributes` left empty
  /// (the tile is taken to have copcPointAttributes(), not stored once per tile) until its
  /// header is read, when the stream first wants it (deferred_tile_source.hpp). False: read
  /// from the tile's header.
  bool fromIndex = false;

  /// The tile's coordinate system (an unknown one where none is stated).
  const CoordinateSystem& coordinateSystem() const;
};

/// The attributes every COPC point format (6, 7 and 8) carries, as pcv's LAS reader names them:
/// what a tile known from an index is taken to have until it is read.
const std::vector<std::string>& copcPointAttributes();

/// Tiles a dataset's index describes, by location (expandTilePaths fills it from VPCs).
using TileIndex = std::unordered_map<std::string, Tile>;

/// The tiles of a dataset, in the order given (folders: their files sorted by path).
struct TileSet {
  std::vector<Tile> tiles;
  uint64_t pointCount = 0;  ///< of all tiles
  Box3d bounds;             ///< around all tiles'
  CoordinateSystem crs;     ///< the first tile's (requireOneCoordinateSystem: every tile's)
  /// Overview point clouds of the whole dataset, local COPC files (a VPC's assets whose roles
  /// include "overview", as `pdal_wrench build_vpc --overview` writes: every 1000th point of
  /// the tiles as one COPC file, or one per square of --overview-length). When there are some,
  /// they make the first image instead of the tiles' samples (tile_forest.hpp).
  std::vector<std::string> overviews;
  /// --skip-bad-tiles: a tile known from the index that cannot be read when wanted is left
  /// out with a warning (else its failure is an error, as a header that cannot be read is).
  bool skipBadTiles = false;

  size_t count(TileFormat format) const;
};

/// "COPC", "LAZ", "LAS".
const char* tileFormatName(TileFormat format);

/// Whether `path` names a LAS, LAZ or COPC file by its name (.las, .laz, .copc.laz; any case).
bool hasTileExtension(const std::string& path);

/// `paths` with every folder replaced by the tile files under it (recursively, by name, sorted)
/// and every QGIS virtual point cloud (.vpc) by its tiles, in its order; files stay as given.
/// A VPC (a path or a URL) gives its tiles' locations: local paths, or URLs read by range
/// requests (pcv/io/remote_source.hpp); a remote VPC's are URLs only (resolveVpcHref). A tile
/// that a VPC lists twice is kept once, with a line in `warnings` (when given). With `index`,
/// every VPC item that states its tile's pc:count and proj:bbox and names a COPC file
/// (.copc.laz) is described there from the VPC alone (Tile::fromIndex); other items' tiles are
/// left to their headers. With `overviews`, the VPCs' overviews (datasetOverviews) are
/// gathered from the same parse of each VPC. Throws InputError for a folder or VPC without
/// tiles, a path that is not there, or a refused href.
std::vector<std::string> expandTilePaths(const std::vector<std::string>& paths,
                                         std::vector<std::string>* warnings = nullptr,
                                         TileIndex* index = nullptr,
                                         std::vector<std::string>* overviews = nullptr);

/// The overview point clouds that the VPCs among `paths` name (distinct, in order of first use,
/// local files that exist and are COPC by name; URLs and missing files are left out, as a
/// dataset opens without its overview). Folders and files name none.
std::vector<std::string> datasetOverviews(const std::vector<std::string>& paths);

/// Whether `paths` name a dataset rather than files: a folder or a .vpc among them.
bool namesDataset(const std::vector<std::string>& paths);

/// Reads the header of every one of `files` on all cores (ReadOptions::headerOnly: no point is
/// decoded, each file is open only while its header is read). Throws InputError naming the file
/// for one that is not LAS, LAZ or COPC or whose header is broken. Does not compare the tiles'
/// coordinate systems (files merged in core never did). The first tile that fails ends the work
/// (tiles after it are not started). With `skipped` (--skip-bad-tiles), every tile is tried and
/// those that fail are left out, a line each in `skipped`; it throws only when none is left.
/// With `index`, the files it describes are taken from it and not read (their tiles open when
/// the stream first wants them); the others' headers are read as above.
TileSet describeTiles(const std::vector<std::string>& files,
                      std::vector<std::string>* skipped = nullptr,
                      const TileIndex* index = nullptr);

/// What the header of the tile at `path` says. Throws InputError naming the file for one that
/// is not LAS, LAZ or COPC or whose header is broken.
Tile describeTile(const std::string& path);

/// Throws InputError naming two tiles when `set`'s tiles state different coordinate systems (the
/// bytes of their LASF_Projection WKT and GeoTIFF records differ, a tile stating none included).
void requireOneCoordinateSystem(const TileSet& set);

/// describeTiles(), then requireOneCoordinateSystem(): a dataset's tiles.
TileSet readTileSet(const std::vector<std::string>& files);

}  // namespace pcv
