/// @brief QGIS virtual point clouds (`.vpc`): a STAC ItemCollection (GeoJSON FeatureCollection)
/// with one item per tile, as `pdal_wrench build_vpc` writes and QGIS reads. Read into a list
/// of tiles (where each is, its count, native bounds, CRS, overviews) and written from tiles.
#pragma once

#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "pcv/core/bounds.hpp"
#include "pcv/core/partial_file.hpp"
#include "pcv/io/coordinate_system.hpp"

namespace pcv {

/// One item of a VPC: a tile file and what the VPC says about it. Optional fields are empty when
/// the VPC leaves them out.
struct VpcTile {
  std::string id;  ///< the item's "id"; may be empty
  /// assets.data.href resolved: a local path (joined to the VPC's folder when relative) or a
  /// URL kept as written (relative hrefs of a remote VPC joined to its URL).
  std::string location;
  std::optional<uint64_t> pointCount;  ///< properties["pc:count"]
  /// properties["proj:bbox"], in the tile's CRS; a 2D bbox leaves z at [0, 0].
  std::optional<Box3d> nativeBounds;
  std::optional<GeographicBox> geographicBounds;  ///< "bbox", WGS84 degrees
  /// properties["proj:wkt2"] and ["proj:epsg"], as an index into
  /// VirtualPointCloud::coordinateSystems: tiles share one copy of a long WKT.
  size_t crsIndex = 0;
  /// Assets whose roles include "overview", resolved like `location`: thinned point clouds for
  /// views from afar, possibly shared by several tiles.
  std::vector<std::string> overviews;
};

/// A parsed VPC.
struct VirtualPointCloud {
  std::vector<VpcTile> tiles;  ///< in the order of the file's features
  /// The distinct CRS of the tiles, in order of first use; one entry (possibly unknown) for a
  /// VPC of one CRS, as QGIS expects.
  std::vector<CoordinateSystem> coordinateSystems;

  uint64_t totalPoints() const;  ///< sum of the known pc:count
  const CoordinateSystem& crsOf(const VpcTile& tile) const {
    return coordinateSystems[tile.crsIndex];
  }
};

/// True for "http://", "https://" and "s3://" locations (case-insensitive scheme).
bool isUrl(const std::string& location);

/// What a VPC's hrefs may name besides what resolveVpcHref always refuses.
struct VpcHrefRules {
  /// A remote VPC's tiles and overviews on its own origin only (scheme, host and port;
  /// --tile-origins same): whoever serves the VPC cannot send pcv to other servers.
  bool sameOrigin = false;
};

/// `href` as a location. Under a local `base` (the VPC's folder): URLs kept (percent-encoded
/// where they hold spaces and such), a relative path joined to `base` with `./` and `..`
/// resolved lexically, absolute paths and "file://" URLs as local paths. Under a URL `base` (the
/// VPC's own URL): an RFC 3986 reference resolved against it (resolveUriReference: "a.laz",
/// "../a.laz", "/a.laz", "//host/a.laz", "?q", "#f"), percent-encoded first, and always a URL:
/// file: and every scheme but http, https and s3 are refused. Throws InputError naming the href
/// (locationForMessages) for those, for hrefs of more than 16 KiB, and for a remote href off the
/// VPC's origin when `rules.sameOrigin`.
std::string resolveVpcHref(const std::string& base, const std::string& href,
                           const VpcHrefRules& rules = {});

/// Reads `path`. Throws InputError naming the file and where: a byte offset for broken JSON, a
/// JSON pointer ("/features/3/assets/data/href") for a value of the wrong type or an absurd one
/// (negative or fractional count, min above max, a non-finite coordinate). Memory holds one
/// feature at a time besides the tiles, so VPCs of 100 000 tiles read in little memory. A local
/// VPC must be a regular file (a FIFO is refused, not waited on); a URL is parsed as its 4 MiB
/// blocks arrive, never held whole, and its hrefs follow `rules`, by default
/// remoteOptions().tilesOnVpcOrigin.
VirtualPointCloud readVirtualPointCloud(const std::filesystem::path& path);
VirtualPointCloud readVirtualPointCloud(const std::filesystem::path& path,
                                        const VpcHrefRules& rules);

/// Parses VPC text from `input`; `name` is the file for messages, `base` the folder or the URL
/// that relative hrefs are resolved against (resolveVpcHref).
VirtualPointCloud parseVirtualPointCloud(std::istream& input, const std::string& name,
                                         const std::string& base, const VpcHrefRules& rules = {});

/// What the writer needs of each tile.
struct VpcTileDescription {
  std::filesystem::path file;  ///< the tile; written relative to the VPC's folder where it can be
  uint64_t pointCount = 0;
  Box3d nativeBounds;  ///< must not be empty
  CoordinateSystem crs;
  std::string id;  ///< empty: the file name without its point-cloud extensions
};

/// Writes a VPC that QGIS opens: one STAC 1.0 item per tile with `./`-relative hrefs (absolute
/// paths where the tile is on another root), pc:count, the 3D proj:bbox, proj:wkt2 (and
/// proj:epsg when the file gives one), and the WGS84 geometry and bbox when the CRS can be
/// transformed (geographicBoxOf). Written through a partial file: an existing VPC is replaced
/// in one step where `rules` allow it, never a tile. Throws Error when it cannot be written,
/// InputError for an empty tile list or a tile without bounds, OutputExistsError.
void writeVirtualPointCloud(const std::filesystem::path& path,
                            std::span<const VpcTileDescription> tiles,
                            const OutputRules& rules = {.existing = ExistingOutput::Replace});

/// What `pcv vpc` found in its inputs.
struct VpcBuildSummary {
  std::vector<VpcTileDescription> tiles;  ///< in the order of the inputs
  uint64_t totalPoints = 0;
  Box3d bounds;             ///< of all tiles, native coordinates
  CoordinateSystem crs;     ///< shared by every tile
  bool geographic = false;  ///< WGS84 geometry was written (the CRS could be transformed)
};

/// Describes `files` from their headers alone (ReadOptions::headerOnly), on all cores, for
/// writeVirtualPointCloud. Throws InputError naming the file for an unreadable header or one
/// without bounds, and naming two tiles when their coordinate systems differ.
VpcBuildSummary describeVpcTiles(std::span<const std::filesystem::path> files);

/// describeVpcTiles then writeVirtualPointCloud: `pdal_wrench build_vpc` from headers.
VpcBuildSummary buildVirtualPointCloud(const std::filesystem::path& path,
                                       std::span<const std::filesystem::path> files,
                                       const OutputRules& rules = {
                                           .existing = ExistingOutput::Replace});

}  // namespace pcv
