#include "info_command.hpp"

#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "pcv/io/point_cloud_reader.hpp"
#include "pcv/stream/tile_set.hpp"
#include "options/option_groups.hpp"
#include "cli/device_listing.hpp"
#include "options/run_report.hpp"
#include "options/stream_flags.hpp"

namespace pcv::app {
namespace {

/// A coordinate for printing: -0.000 prints as 0.000.
double printable(double value) {
  return std::abs(value) < 0.0005 ? 0.0 : value;
}

/// Bounds a real cloud can have. Files without bounds may state placeholders (±1.8e308), which
/// %.3f would print as 300-digit numbers; beyond 1e15 a double has no millimetres to print.
bool plausibleBounds(const Box3d& b) {
  constexpr double kLargestCoordinate = 1e15;
  for (int axis = 0; axis < 3; ++axis) {
    if (!(std::abs(b.min[axis]) < kLargestCoordinate && std::abs(b.max[axis]) < kLargestCoordinate))
      return false;
  }
  return true;
}

/// "metre", or what the file leaves unsaid.
std::string unitText(const LengthUnit& unit) {
  return unit.known() ? unit.name : std::string("not declared");
}

/// The coordinate system's lines: its name and EPSG codes, then the units of x/y and of z.
void printCoordinateSystem(const CoordinateSystem& crs) {
  if (!crs.known()) {
    std::printf("  crs:        none stated\n");
    return;
  }
  std::string codes;
  if (crs.epsg != 0) codes = "EPSG:" + std::to_string(crs.epsg);
  if (crs.verticalEpsg != 0)
    codes += (codes.empty() ? "EPSG:" : "+") + std::to_string(crs.verticalEpsg);
  const std::string label = crs.label();
  if (codes.empty() || label.starts_with("EPSG:")) {
    std::printf("  crs:        %s\n", label.c_str());
  } else {
    std::printf("  crs:        %s (%s)\n", label.c_str(), codes.c_str());
  }
  std::printf("  units:      horizontal %s, vertical %s\n", unitText(crs.horizontalUnit).c_str(),
              unitText(crs.verticalUnit).c_str());
}

nlohmann::json unitFigures(const LengthUnit& unit) {
  if (!unit.known()) return nullptr;
  return {{"name", unit.name},
          {"symbol", unit.symbol()},
          {"metres", unit.angular() ? nlohmann::json(nullptr) : nlohmann::json(unit.metres)}};
}

/// The CRS for --report: null when the file states none; EPSG codes null where unknown.
nlohmann::json crsFigures(const CoordinateSystem& crs) {
  if (!crs.known()) return nullptr;
  const auto code = [](int epsg) {
    return epsg != 0 ? nlohmann::json(epsg) : nlohmann::json(nullptr);
  };
  return {{"label", crs.label()},
          {"name", crs.name.empty() ? nlohmann::json(nullptr) : nlohmann::json(crs.name)},
          {"wkt", crs.wkt},
          {"epsg", code(crs.epsg)},
          {"verticalEpsg", code(crs.verticalEpsg)},
          {"horizontalUnit", unitFigures(crs.horizontalUnit)},
          {"verticalUnit", unitFigures(crs.verticalUnit)}};
}

void printSummary(const std::string& path, const FileSummary& s) {
  std::printf("%s\n", path.c_str());
  std::printf("  format:     %s %s\n", s.format.c_str(), s.details.c_str());
  if (!s.pointCountKnown) {
    std::printf("  points:     not declared by the format (--stats counts them)\n");
  } else {
    std::printf("  points:     %llu%s", static_cast<unsigned long long>(s.pointCount),
                s.fromHeader ? " (as the header declares; --stats reads them)" : "");
  }
  if (s.droppedPoints) {
    std::printf(" (%llu with NaN/inf coordinates dropped)",
                static_cast<unsigned long long>(s.droppedPoints));
  }
  if (s.pointCountKnown) std::printf("\n");
  if (s.worldBounds.empty()) {
    std::printf("  bounds:     %s\n",
                s.fromHeader ? "(not in the header; --stats computes them)" : "(none)");
  } else if (!plausibleBounds(s.worldBounds)) {
    const auto& b = s.worldBounds;
    std::printf("  bounds:     none (stated as min (%.3g, %.3g, %.3g) max (%.3g, %.3g, %.3g))\n",
                b.min.x, b.min.y, b.min.z, b.max.x, b.max.y, b.max.z);
  } else {
    const auto& b = s.worldBounds;
    std::printf("  bounds:     min (%.3f, %.3f, %.3f)\n              max (%.3f, %.3f, %.3f)%s\n",
                printable(b.min.x), printable(b.min.y), printable(b.min.z), printable(b.max.x),
                printable(b.max.y), printable(b.max.z),
                s.fromHeader ? "\n              (as the header declares)" : "");
    if (!s.fromHeader) {
      std::printf("  origin:     (%.3f, %.3f, %.3f)\n", printable(s.origin.x),
                  printable(s.origin.y), printable(s.origin.z));
    }
  }
  std::printf("  colour:     %s\n", s.hasColor ? "rgb from the file" : "none");
  std::string names;
  for (const auto& name : s.attributes) names += (names.empty() ? "" : ", ") + name;
  std::printf("  attributes: %s\n", names.empty() ? "(none)" : names.c_str());
  printCoordinateSystem(s.crs);
  for (const auto& note : s.notes) std::printf("  %s\n", note.c_str());
  for (const auto& warning : s.warnings) std::printf("  warning:    %s\n", warning.c_str());
}

/// `s` for --report: counts and bounds as numbers, null where the file gives none.
nlohmann::json summaryFigures(const std::string& path, const FileSummary& s) {
  nlohmann::json figures = {
      {"path", path},      {"format", s.format},         {"details", s.details},
      {"points", nullptr}, {"fromHeader", s.fromHeader}, {"droppedPoints", s.droppedPoints},
      {"bounds", nullptr}, {"colour", s.hasColor},       {"attributes", s.attributes},
      {"notes", s.notes},  {"warnings", s.warnings},     {"missingPoints", s.missingPoints}};
  if (s.pointCountKnown) figures["points"] = s.pointCount;
  if (!s.worldBounds.empty()) {
    const Box3d& b = s.worldBounds;
    figures["bounds"] = {{"min", {b.min.x, b.min.y, b.min.z}},
                         {"max", {b.max.x, b.max.y, b.max.z}}};
  }
  if (!s.fromHeader) figures["origin"] = {s.origin.x, s.origin.y, s.origin.z};
  figures["crs"] = crsFigures(s.crs);
  return figures;
}

nlohmann::json boundsFigures(const Box3d& b) {
  if (b.empty()) return nullptr;
  return {{"min", {b.min.x, b.min.y, b.min.z}}, {"max", {b.max.x, b.max.y, b.max.z}}};
}

/// A dataset (folders among the paths): its tiles, one line each, then the totals. Its tiles'
/// headers are read in parallel; tiles in two coordinate systems are an error naming two.
void describeDataset(const std::vector<std::string>& paths, bool skipBadTiles) {
  std::vector<std::string> warnings;
  TileSet set =
      describeTiles(expandTilePaths(paths, &warnings), skipBadTiles ? &warnings : nullptr);
  for (const std::string& warning : warnings) {
    std::fprintf(stderr, "pcv: warning: %s\n", warning.c_str());
    runReport()["warnings"].push_back(warning);
  }
  requireOneCoordinateSystem(set);
  completeFromDatabase(set.crs);
  nlohmann::json formats = nlohmann::json::object();
  std::string formatText;
  for (const TileFormat format : {TileFormat::Copc, TileFormat::Laz, TileFormat::Las}) {
    if (const size_t count = set.count(format)) {
      formats[tileFormatName(format)] = count;
      formatText +=
          (formatText.empty() ? "" : ", ") + std::to_string(count) + " " + tileFormatName(format);
    }
  }
  nlohmann::json tiles = nlohmann::json::array();
  for (const Tile& tile : set.tiles) {
    tiles.push_back({{"path", tile.path},
                     {"format", tileFormatName(tile.format)},
                     {"points", tile.pointCount},
                     {"bounds", boundsFigures(tile.bounds)}});
  }
  runReport()["dataset"] = {{"tiles", tiles},           {"tileCount", set.tiles.size()},
                            {"points", set.pointCount}, {"bounds", boundsFigures(set.bounds)},
                            {"formats", formats},       {"crs", crsFigures(set.crs)}};
  if (reportGoesToStdout()) return;
  for (const Tile& tile : set.tiles) {
    std::printf("%s  %s  %llu points\n", tile.path.c_str(), tileFormatName(tile.format),
                static_cast<unsigned long long>(tile.pointCount));
  }
  std::printf("dataset\n  tiles:      %zu (%s)\n  points:     %llu (as the headers declare)\n",
              set.tiles.size(), formatText.c_str(),
              static_cast<unsigned long long>(set.pointCount));
  const Box3d& b = set.bounds;
  if (b.empty() || !plausibleBounds(b)) {
    std::printf("  bounds:     none\n");
  } else {
    std::printf("  bounds:     min (%.3f, %.3f, %.3f)\n              max (%.3f, %.3f, %.3f)\n",
                printable(b.min.x), printable(b.min.y), printable(b.min.z), printable(b.max.x),
                printable(b.max.y), printable(b.max.z));
  }
  printCoordinateSystem(set.crs);
}

}  // namespace

void addInfoCommand(CLI::App& cli) {
  auto files = std::make_shared<std::vector<std::string>>();
  auto read = std::make_shared<ReadFlags>();
  auto stats = std::make_shared<bool>(false);
  auto devices = std::make_shared<bool>(false);
  auto remote = std::make_shared<StreamLimits>();
  CLI::App* info = cli.add_subcommand(
      "info",
      "Describe point cloud files (PLY, LAS, LAZ, COPC, PCD, E57, text): format, points, "
      "bounds, attributes, and the coordinate system with its units where the file declares one; "
      "or, with --devices, the GPUs pcv draws on");
  info->add_option("files", *files,
                   "Files to describe; a folder: the dataset of the LAS/LAZ/COPC tiles under it");
  info->add_flag("--devices", *devices,
                 "List the GPUs: CUDA, each Vulkan device (the index and name --vulkan-device "
                 "takes, or why it cannot draw), and what --backend auto draws with");
  addReadFlags(*info, *read);
  info->add_flag("--stats", *stats,
                 "Read every point: counts without NaN/inf points and bounds computed from them "
                 "(default: the header alone, instant at any size)");
  addRemoteFlags(*info, *remote);
  addReportOption(*info);
  info->callback([files, read, stats, devices, remote] {
    if (*devices) describeDevices();
    if (files->empty()) {
      if (*devices) return;
      throw CLI::RequiredError("files");  // a usage error (status 2), as before --devices
    }
    applyRemoteLimits(*remote);
    if (namesDataset(*files)) {
      describeDataset(*files, remote->skipBadTiles);
      return;
    }
    ReadOptions options = readOptionsFrom(*read);
    options.headerOnly = !*stats;
    options.allAttributes = true;  // every field the file has is listed
    int failures = 0;
    for (const std::string& path : *files) {
      try {
        FileSummary summary;
        readPointCloud(path, options, nullptr, &summary);
        completeFromDatabase(summary.crs);
        // With --report -, the JSON alone is on standard output.
        if (!reportGoesToStdout()) printSummary(path, summary);
        runReport()["files"].push_back(summaryFigures(path, summary));
      } catch (const Error& error) {
        std::fprintf(stderr, "pcv: error: %s\n", error.what());
        ++failures;
      }
    }
    if (failures > 0) {
      throw InputError(std::to_string(failures) + " of " + std::to_string(files->size()) +
                       " files could not be read");
    }
  });
}

}  // namespace pcv::app
