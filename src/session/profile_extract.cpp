#include "pcv/session/profile_extract.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <cstdio>
#include <numeric>

#include "pcv/core/camera_framing.hpp"
#include "pcv/core/error.hpp"
#include "pcv/core/number_text.hpp"
#include "pcv/core/parallel.hpp"
#include "pcv/core/point_coloring.hpp"
#include "pcv/core/text_case.hpp"
#include "pcv/io/copc_file.hpp"
#include "pcv/raster/renderer.hpp"
#include "pcv/raster/view_setup.hpp"
#include "pcv/stream/tile_set.hpp"

namespace pcv {
namespace {

/// The corridor's points of one piece (a file, a node), in the piece's order.
struct Piece {
  glm::dvec3 origin{0.0};
  bool hasColor = false;
  std::vector<std::string> attributeNames;
  std::vector<uint64_t> kept;  ///< indices into the piece's points
  std::vector<double> distances;
  PointCloud cloud;
};

Piece keepCorridor(PointCloud cloud, const ProfileCorridor& corridor) {
  Piece piece;
  piece.origin = cloud.origin;
  piece.hasColor = cloud.hasColor;
  for (const ScalarAttribute& a : cloud.attributes) piece.attributeNames.push_back(a.name);
  // Each point's distance along the line (NaN outside), on all cores, then the kept ones in order.
  std::vector<double> along(cloud.size());
  parallelFor(cloud.size(), [&](uint64_t begin, uint64_t end) {
    for (uint64_t i = begin; i < end; ++i) {
      const Point& p = cloud.points[i];
      const glm::dvec3 world = cloud.origin + glm::dvec3(p.x, p.y, p.z);
      // Filters (include/pcv/core/point_filter.hpp, by class, return and attribute range) plug
      // in here: a point they drop is no part of the profile.
      along[i] = corridor.distanceAlong(world.x, world.y)
                     .value_or(std::numeric_limits<double>::quiet_NaN());
    }
  });
  for (uint64_t i = 0; i < along.size(); ++i) {
    if (std::isnan(along[i])) continue;
    piece.kept.push_back(i);
    piece.distances.push_back(along[i]);
  }
  piece.cloud = std::move(cloud);
  return piece;
}

/// Joins the pieces into the profile, ordered by distance along the line.
void assemble(std::vector<Piece>& pieces, ProfilePoints& profile) {
  PointCloud& cloud = *profile.cloud;
  std::vector<std::string> names;
  bool allColored = !pieces.empty();
  for (const Piece& piece : pieces) {
    allColored = allColored && (piece.hasColor || piece.kept.empty());
    for (const std::string& name : piece.attributeNames) {
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    }
  }
  struct Source {
    uint32_t piece;
    uint64_t index;  ///< among the piece's kept points
    double distance;
  };
  std::vector<Source> order;
  for (uint32_t p = 0; p < pieces.size(); ++p) {
    for (uint64_t k = 0; k < pieces[p].kept.size(); ++k) {
      order.push_back({p, k, pieces[p].distances[k]});
    }
  }
  std::stable_sort(order.begin(), order.end(),
                   [](const Source& a, const Source& b) { return a.distance < b.distance; });
  cloud.origin = pieces.empty() ? glm::dvec3(0.0) : pieces.front().origin;
  cloud.hasColor = allColored;
  cloud.points.resize(order.size());
  for (const std::string& name : names) {
    cloud.attributes.push_back({name, {}});
    // The type of the first piece that has it.
    for (const Piece& piece : pieces) {
      if (const ScalarAttribute* own = piece.cloud.findAttribute(name)) {
        cloud.attributes.back().type = own->type;
        break;
      }
    }
    cloud.attributes.back().resize(order.size());
  }
  profile.positions.resize(order.size());
  profile.distances.resize(order.size());
  // Each piece's attribute columns in the profile's order of names (-1: the piece lacks it).
  std::vector<std::vector<int>> columns(pieces.size());
  for (size_t p = 0; p < pieces.size(); ++p) {
    for (const std::string& name : names) {
      const auto& own = pieces[p].attributeNames;
      const auto at = std::find(own.begin(), own.end(), name);
      columns[p].push_back(at == own.end() ? -1 : int(at - own.begin()));
    }
  }
  for (size_t i = 0; i < order.size(); ++i) {
    const Piece& piece = pieces[order[i].piece];
    const uint64_t source = piece.kept[order[i].index];
    const Point& p = piece.cloud.points[source];
    const glm::dvec3 world = piece.origin + glm::dvec3(p.x, p.y, p.z);
    profile.positions[i] = world;
    profile.distances[i] = order[i].distance;
    const glm::dvec3 offset = world - cloud.origin;
    cloud.points[i] = Point{float(offset.x), float(offset.y), float(offset.z), p.rgba};
    for (size_t a = 0; a < names.size(); ++a) {
      const int column = columns[order[i].piece][a];
      cloud.attributes[a].setValue(i, column < 0
                                          ? std::numeric_limits<double>::quiet_NaN()
                                          : piece.cloud.attributes[size_t(column)].value(source));
    }
  }
}

bool hasTileName(const std::string& path) {
  return hasTileExtension(path);
}

/// The file read whole, its warnings added to `warnings`.
PointCloud readCollectingWarnings(const std::string& file, const ReadOptions& options,
                                  std::vector<std::string>& warnings) {
  FileSummary summary;
  PointCloud cloud = readPointCloud(file, options, nullptr, &summary);
  warnings.insert(warnings.end(), summary.warnings.begin(), summary.warnings.end());
  return cloud;
}

}  // namespace

ProfilePoints extractProfile(const std::vector<std::string>& inputs,
                             const ProfileCorridor& corridor, const ReadOptions& options) {
  ProfilePoints profile;
  std::vector<Piece> pieces;
  const std::vector<std::string> files = expandTilePaths(inputs);
  std::vector<std::string> tiles;
  for (const std::string& file : files) {
    if (hasTileName(file)) tiles.push_back(file);
  }
  const TileSet described = describeTiles(tiles);  // headers only, in parallel
  profile.crs = described.crs;
  size_t tileIndex = 0;
  for (const std::string& file : files) {
    if (!hasTileName(file)) {
      ++profile.filesRead;
      PointCloud cloud = readCollectingWarnings(file, options, profile.warnings);
      profile.pointsTested += cloud.size();
      pieces.push_back(keepCorridor(std::move(cloud), corridor));
      continue;
    }
    const Tile& tile = described.tiles[tileIndex++];
    if (!corridor.meets(tile.bounds)) {
      ++profile.filesSkipped;
      continue;
    }
    ++profile.filesRead;
    if (tile.format != TileFormat::Copc) {
      PointCloud cloud = readCollectingWarnings(file, options, profile.warnings);
      profile.pointsTested += cloud.size();
      pieces.push_back(keepCorridor(std::move(cloud), corridor));
      continue;
    }
    // COPC: only the nodes whose cubes meet the corridor are decoded, on all cores.
    const CopcFile copc(file, options);
    const CopcHierarchy& hierarchy = copc.hierarchy();
    std::vector<size_t> wanted;
    for (size_t n = 0; n < hierarchy.nodes.size(); ++n) {
      if (hierarchy.nodes[n].pointCount == 0) continue;
      ++profile.nodesTotal;
      if (corridor.meets(hierarchy.nodes[n].bounds)) wanted.push_back(n);
    }
    std::vector<Piece> nodes(wanted.size());
    std::vector<uint64_t> decoded(wanted.size());
    parallelForEachDynamic(wanted.size(), [&](size_t i) {
      PointCloud node = copc.decodeNode(wanted[i]);
      decoded[i] = node.size();
      nodes[i] = keepCorridor(std::move(node), corridor);
    });
    profile.nodesRead += wanted.size();
    profile.pointsTested += std::accumulate(decoded.begin(), decoded.end(), uint64_t(0));
    for (Piece& node : nodes) pieces.push_back(std::move(node));
  }
  assemble(pieces, profile);
  return profile;
}

ProfilePoints extractProfile(const PointCloud& cloud, const ProfileCorridor& corridor) {
  ProfilePoints profile;
  PointCloud copy;
  copy.origin = cloud.origin;
  copy.hasColor = cloud.hasColor;
  copy.points.resize(cloud.size());
  std::copy(cloud.points.begin(), cloud.points.end(), copy.points.begin());
  for (const ScalarAttribute& a : cloud.attributes) {
    copy.attributes.push_back(a.emptyLike());
    copy.attributes.back().append(a, 0, a.size());
  }
  profile.pointsTested = cloud.size();
  std::vector<Piece> pieces;
  pieces.push_back(keepCorridor(std::move(copy), corridor));
  assemble(pieces, profile);
  return profile;
}

void writeProfileCsv(const ProfilePoints& profile, const std::filesystem::path& path) {
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (!file) throw InputError("cannot create " + path.string());
  const PointCloud& cloud = *profile.cloud;
  const LengthUnit horizontal = profile.crs.lengthUnit();
  const LengthUnit vertical =
      profile.crs.verticalUnit.known() ? profile.crs.verticalUnit : horizontal;
  const auto named = [](const char* name, const LengthUnit& unit) {
    return unit.known() ? std::string(name) + " (" + unit.symbol() + ")" : std::string(name);
  };
  std::string text = named("x", horizontal) + "," + named("y", horizontal) + "," +
                     named("z", vertical) + "," + named("distance", horizontal);
  if (cloud.hasColor) text += ",red,green,blue";
  // Fields appended one by one: a comma, then the value.
  auto field = [&text](const std::string& value) {
    text += ',';
    text += value;
  };
  for (const ScalarAttribute& a : cloud.attributes) field(a.name);
  text += '\n';
  for (size_t i = 0; i < profile.size(); ++i) {
    const glm::dvec3& p = profile.positions[i];
    text += exactText(p.x);
    field(exactText(p.y));
    field(exactText(p.z));
    field(exactText(profile.distances[i]));
    if (cloud.hasColor) {
      const uint32_t rgba = cloud.points[i].rgba;
      field(std::to_string(redOf(rgba)));
      field(std::to_string(greenOf(rgba)));
      field(std::to_string(blueOf(rgba)));
    }
    for (const ScalarAttribute& a : cloud.attributes) {
      field(a.wide() ? exactText(a.wideValues[i]) : exactFloatText(a.values[i]));
    }
    text += '\n';
    if (text.size() > (1u << 20)) {
      std::fwrite(text.data(), 1, text.size(), file);
      text.clear();
    }
  }
  const bool written = std::fwrite(text.data(), 1, text.size(), file) == text.size();
  if (std::fclose(file) != 0 || !written) throw Error("could not write " + path.string());
}

PointCloud profilePlaneCloud(const ProfilePoints& profile) {
  PointCloud plane;
  double zSum = 0.0;
  for (const glm::dvec3& p : profile.positions) zSum += p.z;
  // Heights as offsets from a whole number near their mean keep their centimetres in float.
  const double zOrigin =
      profile.size() == 0 ? 0.0 : originNear(glm::dvec3(0.0, 0.0, zSum / double(profile.size()))).z;
  plane.origin = glm::dvec3(0.0, 0.0, zOrigin);
  plane.points.resize(profile.size());
  std::vector<uint32_t> rgba(profile.size());
  colorPoints(*profile.cloud, {}, rgba);  // the data's colours, else by elevation
  for (size_t i = 0; i < profile.size(); ++i) {
    plane.points[i] =
        Point{float(profile.distances[i]), 0.0f, float(profile.positions[i].z - zOrigin), rgba[i]};
  }
  plane.hasColor = true;
  return plane;
}

Camera profileImageCamera(const ProfilePoints& profile, int widthPx, int heightPx) {
  Box3d bounds;
  for (size_t i = 0; i < profile.size(); ++i) {
    bounds.extend(glm::dvec3(profile.distances[i], 0.0, profile.positions[i].z));
  }
  if (bounds.empty()) bounds = Box3d{glm::dvec3(0.0), glm::dvec3(1.0)};
  // The line's start, even where it holds no point.
  bounds.extend(glm::dvec3(0.0, 0.0, bounds.min.z));
  return frameOrtho(OrthoView::Front, bounds, float(widthPx) / float(heightPx), std::nullopt);
}

glm::dvec2 profileImagePosition(const Camera& camera, int widthPx, int heightPx, double xPx,
                                double yPx) {
  // The front view: +x (distance) to the right, +z up, centred on the eye.
  const double unitsPerPixel = camera.orthoWidth / double(widthPx);
  return {camera.eye.x + (xPx + 0.5 - 0.5 * widthPx) * unitsPerPixel,
          camera.eye.z + (yPx + 0.5 - 0.5 * heightPx) * unitsPerPixel};
}

Image renderProfileImage(const ProfilePoints& profile, Renderer& renderer, int widthPx,
                         int heightPx, const RenderSettings& settings) {
  const PointCloud plane = profilePlaneCloud(profile);
  renderer.clear();
  if (plane.size() > 0) renderer.addSet(std::span<const Point>(plane.points.data(), plane.size()));
  const Camera camera = profileImageCamera(profile, widthPx, heightPx);
  Image image(widthPx, heightPx);
  renderer.render(makeViewTransform(camera, widthPx, heightPx, plane.origin), settings,
                  RenderTarget{image.pixels.data(), widthPx, heightPx, MemorySpace::Host});
  return image;
}

ProfileFileKind profileFileKindFor(const std::filesystem::path& path) {
  const std::string extension = lowerCase(path.extension().string());
  if (extension == ".csv") return ProfileFileKind::Csv;
  if (extension == ".las") return ProfileFileKind::Las;
  if (extension == ".laz") return ProfileFileKind::Laz;
  if (extension == ".png") return ProfileFileKind::Png;
  throw InputError("cannot write a profile as \"" + extension + "\" (" + path.string() +
                   "): expected .csv, .las, .laz or .png");
}

}  // namespace pcv
