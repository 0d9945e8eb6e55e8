#include "classify_command.hpp"

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "options/run_report.hpp"
#include "pcv/core/error.hpp"
#include "pcv/core/length_unit.hpp"
#include "pcv/session/file_classification.hpp"

namespace pcv::app {
namespace {

struct ClassifyOptions {
  std::vector<std::string> files;  ///< inputs, then the output (without --in-place)
  bool inPlace = false;            ///< rewrite each input instead
  bool overwrite = false;          ///< replace an existing output (never an input)
  ClassifySettings settings{.ground = false, .noise = false};
  GivenLengths given;  ///< lengths given on the command line (map units); the rest in metres
};

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
  LengthUnit unit;
  const ClassifySettings settings =
      settingsForFiles(inputs, options.settings, options.given, &unit);
  FileClassificationSummary summary;
  if (options.inPlace) {
    summary = classifyFilesInPlace(inputs, settings);
  } else {
    RecordSinkOptions sink{.output = {.existing = options.overwrite ? ExistingOutput::Replace
                                                                    : ExistingOutput::Refuse}};
    summary = classifyFilesTo(inputs, output, settings, sink);
  }
  runReport()["classify"] = {{"points", summary.points},
                             {"ground", summary.ground},
                             {"noise", summary.noise},
                             {"outputs", summary.outputs},
                             // The lengths the filters ran with, in the inputs' unit ("" when none
                             // is declared: the defaults are then metres).
                             {"unit", unit.symbol()},
                             {"cell", settings.groundFilter.cell},
                             {"window", settings.groundFilter.window},
                             {"threshold", settings.groundFilter.threshold},
                             {"noiseRadius", settings.noiseFilter.radius}};
  for (const std::string& written : summary.outputs) std::printf("%s\n", written.c_str());
  std::printf("%llu points: %llu ground, %llu noise\n",
              static_cast<unsigned long long>(summary.points),
              static_cast<unsigned long long>(summary.ground),
              static_cast<unsigned long long>(summary.noise));
}

}  // namespace

void addClassifyCommand(CLI::App& cli) {
  auto options = std::make_shared<ClassifyOptions>();
  GroundFilterSettings& ground = options->settings.groundFilter;
  NoiseFilterSettings& noise = options->settings.noiseFilter;
  CLI::App* classify = cli.add_subcommand(
      "classify",
      "Set the LAS classification of ground points (2, by SMRF) and isolated points (7, noise) "
      "in LAS, LAZ or COPC files, every other field kept; the inputs are classified together");
  classify
      ->add_option(
          "files", options->files,
          "Inputs, then the output (.las, .laz or .copc.laz); with --in-place, inputs only")
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
  addReportOption(*classify);
  classify->callback([options, classify] {
    // Lengths left out take their defaults (metres) in the inputs' unit; those given are kept.
    options->given = {.cell = classify->count("--cell") > 0,
                      .window = classify->count("--window") > 0,
                      .threshold = classify->count("--threshold") > 0,
                      .noiseRadius = classify->count("--noise-radius") > 0};
    runClassify(*options);
  });
}

}  // namespace pcv::app
