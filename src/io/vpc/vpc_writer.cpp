// Writes a VPC as pdal_wrench build_vpc does: STAC 1.0 items with the pointcloud and projection
// extensions, streamed feature by feature so the JSON of only one tile is in memory.
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "pcv/core/error.hpp"
#include "pcv/core/text_case.hpp"
#include "pcv/io/virtual_point_cloud.hpp"

namespace pcv {
namespace {

// Members in the order written, as pdal_wrench writes them, so the file reads like theirs.
using json = nlohmann::ordered_json;

/// The href QGIS resolves against the VPC's folder: "./tile.laz", "./sub/tile.laz",
/// "../other/tile.laz"; the absolute path where the two share no folder but the root, so moving
/// the VPC beside its tiles keeps it working and one on another tree is not climbed to.
std::string relativeHref(const std::filesystem::path& vpcFolder,
                         const std::filesystem::path& file) {
  const std::filesystem::path absoluteFile = std::filesystem::absolute(file).lexically_normal();
  const auto firstFolder = [](const std::filesystem::path& path) {
    const std::filesystem::path below = path.relative_path();
    return below.empty() ? std::filesystem::path() : *below.begin();
  };
  const std::filesystem::path relative = absoluteFile.lexically_relative(vpcFolder);
  if (relative.empty() || firstFolder(absoluteFile) != firstFolder(vpcFolder)) {
    return absoluteFile.generic_string();
  }
  const std::string text = relative.generic_string();
  return text.starts_with("..") ? text : "./" + text;
}

/// "tile" of "dir/tile.copc.laz".
std::string defaultId(const std::filesystem::path& file) {
  std::filesystem::path stem = file.filename();
  while (stem.has_extension()) stem = stem.stem();
  return stem.string();
}

/// The file's modification time as STAC's datetime (UTC, RFC 3339): STAC requires one, and a
/// tile's header has at most a creation day.
std::string modificationTime(const std::filesystem::path& file) {
  std::error_code error;
  const auto written = std::filesystem::last_write_time(file, error);
  std::time_t seconds = 0;
  if (!error) {
    seconds = std::chrono::system_clock::to_time_t(
        std::chrono::time_point_cast<std::chrono::system_clock::duration>(
            std::chrono::file_clock::to_sys(written)));
  }
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

std::string encodingOf(const std::filesystem::path& file) {
  return equalsIgnoringCase(file.extension().string(), ".laz") ? "LASzip" : "binary";
}

/// The transform of each CRS met, set up on first use: a VPC has one CRS or a few, and PROJ
/// takes tens of milliseconds to set up each.
class TransformCache {
 public:
  const GeographicTransform& of(const CoordinateSystem& crs) {
    std::string key = crs.wkt;
    key += '\0';
    key += std::to_string(crs.epsg);
    key += '+';
    key += std::to_string(crs.verticalEpsg);
    auto found = transforms_.find(key);
    if (found == transforms_.end()) {
      found = transforms_.emplace(std::move(key), GeographicTransform(crs)).first;
    }
    return found->second;
  }

 private:
  std::unordered_map<std::string, GeographicTransform> transforms_;
};

json featureOf(const VpcTileDescription& tile, const std::filesystem::path& vpcFolder,
               const GeographicTransform& transform) {
  const Box3d& b = tile.nativeBounds;
  json properties = {
      {"datetime", modificationTime(tile.file)},
      {"pc:count", tile.pointCount},
      {"pc:type", "lidar"},
      {"pc:encoding", encodingOf(tile.file)},
      {"pc:schemas", json::array({{{"name", "X"}, {"size", 8}, {"type", "floating"}},
                                  {{"name", "Y"}, {"size", 8}, {"type", "floating"}},
                                  {{"name", "Z"}, {"size", 8}, {"type", "floating"}}})},
      {"proj:bbox", {b.min.x, b.min.y, b.min.z, b.max.x, b.max.y, b.max.z}},
  };
  // proj:epsg holds one code: a compound horizontal+vertical CRS goes in the WKT only.
  properties["proj:epsg"] =
      tile.crs.epsg != 0 && tile.crs.verticalEpsg == 0 ? json(tile.crs.epsg) : json(nullptr);
  if (!transform.wkt2().empty()) properties["proj:wkt2"] = transform.wkt2();

  json feature = {
      {"type", "Feature"},
      {"stac_version", "1.0.0"},
      {"stac_extensions",
       {"https://stac-extensions.github.io/pointcloud/v1.0.0/schema.json",
        "https://stac-extensions.github.io/projection/v1.1.0/schema.json"}},
      {"id", tile.id.empty() ? defaultId(tile.file) : tile.id},
  };
  // GeoJSON wants WGS84; without it the geometry is null, which STAC allows, and readers use
  // the native proj:bbox.
  if (const std::optional<GeographicBox> g = transform.box(b)) {
    feature["geometry"] = {{"type", "Polygon"},
                           {"coordinates",
                            {{{g->west, g->south, g->minZ},
                              {g->east, g->south, g->minZ},
                              {g->east, g->north, g->maxZ},
                              {g->west, g->north, g->maxZ},
                              {g->west, g->south, g->minZ}}}}};
    feature["bbox"] = {g->west, g->south, g->minZ, g->east, g->north, g->maxZ};
  } else {
    feature["geometry"] = nullptr;
  }
  feature["properties"] = std::move(properties);
  feature["links"] = json::array();
  feature["assets"] = {
      {"data", {{"href", relativeHref(vpcFolder, tile.file)}, {"roles", {"data"}}}}};
  return feature;
}

}  // namespace

void writeVirtualPointCloud(const std::filesystem::path& path,
                            std::span<const VpcTileDescription> tiles, const OutputRules& rules) {
  if (tiles.empty()) throw InputError(path.string() + ": no tiles to write into the VPC");
  for (const VpcTileDescription& tile : tiles) {
    if (tile.nativeBounds.empty()) {
      throw InputError(tile.file.string() + ": no bounds, which a VPC item needs (proj:bbox)");
    }
  }
  const std::filesystem::path folder =
      std::filesystem::absolute(path).lexically_normal().parent_path();
  OutputRules vpcRules = rules;
  for (const VpcTileDescription& tile : tiles) vpcRules.inputs.push_back(tile.file);
  PartialFile partial(path, vpcRules);
  {
    std::ofstream out(partial.path(), std::ios::binary | std::ios::trunc);
    if (!out) throw Error(path.string() + ": cannot write the VPC file");
    out << "{\n  \"type\": \"FeatureCollection\",\n  \"features\": [\n";
    TransformCache transforms;
    for (size_t i = 0; i < tiles.size(); ++i) {
      const json feature = featureOf(tiles[i], folder, transforms.of(tiles[i].crs));
      out << "    " << feature.dump(-1, ' ', false, json::error_handler_t::replace)
          << (i + 1 < tiles.size() ? ",\n" : "\n");
    }
    out << "  ]\n}\n";
    out.flush();
    if (!out) throw Error(path.string() + ": write failed (disk full?)");
  }
  partial.commit();
}

}  // namespace pcv
