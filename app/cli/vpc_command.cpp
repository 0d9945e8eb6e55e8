#include "vpc_command.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "pcv/core/error.hpp"
#include "pcv/core/partial_file.hpp"
#include "pcv/core/stopwatch.hpp"
#include "pcv/core/text_case.hpp"
#include "pcv/io/virtual_point_cloud.hpp"

namespace pcv::app {
namespace {

bool isTileExtension(const std::filesystem::path& extension) {
  return equalsIgnoringCase(extension.string(), ".las") ||
         equalsIgnoringCase(extension.string(), ".laz");
}

/// The inputs with each folder replaced by its LAS/LAZ/COPC files (not recursive, sorted, so
/// the VPC lists them in a stable order).
std::vector<std::filesystem::path> tileFiles(const std::vector<std::string>& inputs) {
  std::vector<std::filesystem::path> files;
  for (const std::string& input : inputs) {
    if (!std::filesystem::is_directory(input)) {
      files.emplace_back(input);
      continue;
    }
    std::vector<std::filesystem::path> inFolder;
    for (const auto& entry : std::filesystem::directory_iterator(input)) {
      if (entry.is_regular_file() && isTileExtension(entry.path().extension())) {
        inFolder.push_back(entry.path());
      }
    }
    if (inFolder.empty()) throw InputError(input + ": no .las or .laz files in this folder");
    std::sort(inFolder.begin(), inFolder.end());
    files.insert(files.end(), inFolder.begin(), inFolder.end());
  }
  return files;
}

}  // namespace

void addVpcCommand(CLI::App& cli) {
  auto output = std::make_shared<std::string>();
  auto inputs = std::make_shared<std::vector<std::string>>();
  auto overwrite = std::make_shared<bool>(false);
  CLI::App* vpc =
      cli.add_subcommand("vpc",
                         "Write a QGIS virtual point cloud (.vpc) of tiles from their headers, as "
                         "pdal_wrench build_vpc does");
  vpc->add_option("output", *output, "The .vpc file to write")->required();
  vpc->add_option("inputs", *inputs, "Tiles (LAS, LAZ, COPC) or folders of them")->required();
  vpc->add_flag("--overwrite", *overwrite, "Replace a VPC file that exists (never a tile)");
  vpc->callback([output, inputs, overwrite] {
    const auto start = SteadyClock::now();
    // The output comes first here: `pcv vpc a.las b.las` must not take a tile for it.
    if (!endsWithIgnoringCase(*output, ".vpc")) {
      throw InputError(*output +
                       ": the output of vpc comes first and must end in .vpc (pcv vpc "
                       "OUT.vpc TILES...)");
    }
    const std::vector<std::filesystem::path> files = tileFiles(*inputs);
    const VpcBuildSummary summary = buildVirtualPointCloud(
        *output, files,
        {.existing = *overwrite ? ExistingOutput::Replace : ExistingOutput::Refuse});
    const double seconds = secondsSince(start);
    std::printf("wrote %s: %zu tiles, %llu points, CRS %s (%.2f s)\n", output->c_str(),
                summary.tiles.size(), static_cast<unsigned long long>(summary.totalPoints),
                summary.crs.label().c_str(), seconds);
    if (!summary.geographic) {
      std::fprintf(stderr,
                   "pcv: warning: %s: no WGS84 geometry written (%s); QGIS places the "
                   "tiles by proj:bbox%s\n",
                   output->c_str(),
                   !summary.crs.known()               ? "the tiles declare no CRS"
                   : !coordinateTransformsAvailable() ? "pcv was built without PROJ"
                                                      : "PROJ cannot transform this CRS",
                   summary.crs.known() ? "" : " and cannot place them on a map");
    }
  });
}

}  // namespace pcv::app
