#include "classify_command.hpp"

#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "classify_tiles.hpp"
#include "options/run_report.hpp"
#include "pcv/core/host_memory.hpp"
#include "pcv/core/error.hpp"
#include "pcv/core/length_unit.hpp"
#include "pcv/session/file_classification.hpp"
#include "pcv/session/classifier_choice.hpp"
#include "pcv/session/tiled_classification.hpp"
#include "pcv/stream/tile_set.hpp"

namespace pcv::app {
namespace {

struct ClassifyOptions {
  std::vector<std::string> files;  ///< inputs, then the output (without --in-place)
  bool inPlace = false;            ///< rewrite each input instead
  bool overwrite = false;          ///< replace an existing output (never an input)
  ClassifySettings settings{.ground = false, .noise = false};
  GivenLengths given;        ///< lengths given on the command line (map units); the rest in metres
  double buffer = 0.0;       ///< map units; used when bufferGiven, else the settings' default
  bool bufferGiven = false;  ///< --buffer: tile by tile, whatever the inputs are
  uint64_t memoryBytes = 0;  ///< classifying together must fit; 0: half of RAM
  std::string device = "auto";  ///< where the filters run: auto, cuda or cpu
};

/// Whether the inputs are classified tile by tile: a dataset (folder, VPC), --buffer, or files
/// whose points would not fit the memory budget classified together. The last rewrites each
/// input alike either way, so it is taken for --in-place; a single output would be a folder
/// instead of a file, so it is an error naming the remedies.
bool classifiesTileByTile(const ClassifyOptions& options, const std::vector<std::string>& inputs,
                          const ClassifySettings& settings) {
  if (options.bufferGiven || namesDataset(inputs)) return true;
  const TileSet set = describeTiles(inputs);
  // Headers of all zeros leave the grid out of the estimate (the points' extent is unknown).
  const uint64_t needed = classificationBytes(set.pointCount, declaredBounds(set), settings);
  const uint64_t budget = options.memoryBytes ? options.memoryBytes : machineMemoryBytes() / 2;
  if (needed <= budget) return false;
  if (options.inPlace) return true;
  throw InputError("classify: the " + std::to_string(set.pointCount) +
                   " points of the inputs need about " + std::to_string(needed >> 20) +
                   " MiB classified together, more than the memory budget (" +
                   std::to_string(budget >> 20) +
                   " MiB, --memory): classify them tile by tile into a folder (--buffer), or "
                   "--in-place");
}

/// The figures of the filters' lengths, in the inputs' unit ("" when none is declared: the
/// defaults are then metres).
void reportLengths(nlohmann::json& report, const LengthUnit& unit,
                   const ClassifySettings& settings) {
  report["unit"] = unit.symbol();
  report["cell"] = settings.groundFilter.cell;
  report["window"] = settings.groundFilter.window;
  report["threshold"] = settings.groundFilter.threshold;
  report["noiseRadius"] = settings.noiseFilter.radius;
}

void printSummary(const std::vector<std::string>& outputs, uint64_t points, uint64_t ground,
                  uint64_t noise) {
  if (reportGoesToStdout()) return;
  for (const std::string& written : outputs) std::printf("%s\n", written.c_str());
  std::printf("%llu points: %llu ground, %llu noise\n", static_cast<unsigned long long>(points),
              static_cast<unsigned long long>(ground), static_cast<unsigned long long>(noise));
}

/// A dataset tile by tile: each tile written in place or into the output folder.
void classifyDataset(const ClassifyOptions& options, const std::vector<std::string>& inputs,
                     const std::string& output) {
  if (options.bufferGiven) checkClassificationBuffer(options.buffer);
  const std::vector<std::string> tiles = expandTilePaths(inputs);
  LengthUnit unit;
  const ClassifySettings settings = settingsForFiles(tiles, options.settings, options.given, &unit);
  checkClassifySettings(settings);
  const double buffer =
      options.bufferGiven ? options.buffer : defaultClassificationBuffer(settings);
  const std::optional<ClassifyTilesSummary> summary =
      runClassifyTiles({.tiles = tiles,
                        .outputDir = output,
                        .overwrite = options.overwrite,
                        .buffer = buffer,
                        .memoryBytes = options.memoryBytes,
                        .settings = settings,
                        .device = options.device});
  if (!summary) return;  // another rank reports
  nlohmann::json report = {{"points", summary->points},
                           {"ground", summary->ground},
                           {"noise", summary->noise},
                           {"outputs", summary->outputs},
                           {"tiled", true},
                           {"tiles", summary->tiles},
                           {"buffer", buffer},
                           {"bufferPoints", summary->bufferPoints},
                           {"ranks", summary->ranks},
                           {"perTile", nlohmann::json::parse(summary->perTile)}};
  reportLengths(report, unit, settings);
  runReport()["classify"] = std::move(report);
  printSummary(summary->outputs, summary->points, summary->ground, summary->noise);
}

void runClassify(const ClassifyOptions& options) {
  std::vector<std::string> inputs = options.files;
  std::string output;
  if (!options.inPlace) {
    if (inputs.size() < 2) {
      throw InputError(
          "classify needs its inputs, then the output: pcv classify IN... OUT.las "
          "(or --in-place to rewrite the inputs)");
    }
    output = inputs.back();
    inputs.pop_back();
  } else if (options.overwrite) {
    throw InputError("--in-place rewrites the inputs: leave out --overwrite");
  }
  if (options.bufferGiven || namesDataset(inputs)) {
    classifyDataset(options, inputs, output);
    return;
  }
  LengthUnit unit;
  const ClassifySettings settings =
      settingsForFiles(inputs, options.settings, options.given, &unit);
  checkClassifySettings(settings);
  if (classifiesTileByTile(options, inputs, settings)) {
    classifyDataset(options, inputs, output);
    return;
  }
  const std::shared_ptr<const PointClassifier> classifier = choosePointClassifier(options.device);
  FileClassificationSummary summary;
  if (options.inPlace) {
    summary = classifyFilesInPlace(inputs, settings, classifier);
  } else {
    RecordSinkOptions sink{.output = {.existing = options.overwrite ? ExistingOutput::Replace
                                                                    : ExistingOutput::Refuse}};
    summary = classifyFilesTo(inputs, output, settings, sink, classifier);
  }
  nlohmann::json report = {{"points", summary.points},
                           {"ground", summary.ground},
                           {"noise", summary.noise},
                           {"outputs", summary.outputs},
                           {"tiled", false},
                           {"tiles", inputs.size()},
                           {"device", summary.device},
                           {"readSeconds", summary.readSeconds},
                           {"classifySeconds", summary.classifySeconds},
                           {"writeSeconds", summary.writeSeconds}};
  reportLengths(report, unit, settings);
  runReport()["classify"] = std::move(report);
  printSummary(summary.outputs, summary.points, summary.ground, summary.noise);
}

}  // namespace

void addClassifyCommand(CLI::App& cli) {
  auto options = std::make_shared<ClassifyOptions>();
  GroundFilterSettings& ground = options->settings.groundFilter;
  NoiseFilterSettings& noise = options->settings.noiseFilter;
  CLI::App* classify = cli.add_subcommand(
      "classify",
      "Set the LAS classification of ground points (2, by SMRF) and isolated points (7, noise) "
      "in LAS, LAZ or COPC files, every other field kept. Files are classified together; a "
      "dataset (a folder, a .vpc, --buffer, or files too large to classify together with "
      "--in-place) tile by tile, each with its neighbours' points within the buffer, on all "
      "cores and across MPI ranks under mpirun");
  classify
      ->add_option(
          "files", options->files,
          "Inputs (files, folders, .vpc), then the output (.las, .laz or .copc.laz; a folder for "
          "a dataset, one file per tile); with --in-place, inputs only")
      ->required();
  classify->add_flag("--in-place", options->inPlace,
                     "Rewrite each input (through a temporary file renamed over it)");
  classify->add_flag("--overwrite", options->overwrite,
                     "Replace an output file that exists (an input is never replaced)");
  classify->add_flag("--ground", options->settings.ground,
                     "Find ground (class 2); points that were ground and are not become 1");
  classify->add_flag("--noise", options->settings.noise,
                     "Find isolated points (class 7); points that were 7 and are not become 1");
  classify
      ->add_option("--cell", ground.cell,
                   "Ground: grid cell size, map units (defaults: metres, turned into the inputs' "
                   "declared unit)")
      ->capture_default_str();
  classify->add_option("--slope", ground.slope, "Ground: slope threshold, rise over run")
      ->capture_default_str();
  classify
      ->add_option("--window", ground.window,
                   "Ground: largest opening window radius, map units (objects up to about twice "
                   "as wide are removed)")
      ->capture_default_str();
  classify
      ->add_option("--threshold", ground.threshold,
                   "Ground: elevation threshold off the ground surface, map units")
      ->capture_default_str();
  classify
      ->add_option("--scalar", ground.scalar,
                   "Ground: elevation scalar, threshold added per unit of the surface's slope")
      ->capture_default_str();
  classify->add_option("--noise-radius", noise.radius, "Noise: search radius, map units")
      ->capture_default_str();
  classify
      ->add_option("--noise-neighbours", noise.minNeighbours,
                   "Noise: a point with fewer other points within the radius is noise")
      ->capture_default_str();
  classify->add_option(
      "--buffer", options->buffer,
      "Classify tile by tile, each tile with its neighbours' points within this distance, map "
      "units (default for a dataset: twice the ground window plus 4 cells, at least the noise "
      "radius, which gave each tile the whole dataset's classes on the terrains tested; see "
      "docs/classify.md)");
  classify
      ->add_option("--memory", options->memoryBytes,
                   "Memory for classifying, e.g. 8G (default: half of RAM, shared by the ranks on "
                   "a machine): files needing more are classified tile by tile (--in-place), and "
                   "tiles classified at once share it")
      ->transform(CLI::AsSizeValue(false));
  classify
      ->add_option("--device", options->device,
                   "Where the filters run: auto (the GPU where CUDA is usable), cuda or cpu; "
                   "both give the same classes")
      ->check(CLI::IsMember(classifierDeviceNames()))
      ->capture_default_str();
  addReportOption(*classify);
  classify->callback([options, classify] {
    // Lengths left out take their defaults (metres) in the inputs' unit; those given are kept.
    options->given = {.cell = classify->count("--cell") > 0,
                      .window = classify->count("--window") > 0,
                      .threshold = classify->count("--threshold") > 0,
                      .noiseRadius = classify->count("--noise-radius") > 0};
    options->bufferGiven = classify->count("--buffer") > 0;
    runClassify(*options);
  });
}

}  // namespace pcv::app
