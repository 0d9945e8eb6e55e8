#include "convert_command.hpp"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "convert_tiles.hpp"
#include "options/clip_options.hpp"
#include "options/conversion_progress.hpp"
#include "options/filter_options.hpp"
#include "options/interrupt_signals.hpp"
#include "options/octree_sampler_choice.hpp"
#include "pcv/core/error.hpp"
#include "pcv/io/copc_phases.hpp"
#include "pcv/io/copc_writer.hpp"
#include "pcv/io/point_cloud_reader.hpp"
#include "pcv/io/point_records.hpp"
#include "pcv/demo/cylinder_producer.hpp"
#include "pcv/demo/cylinders.hpp"
#include "pcv/session/copc_conversion.hpp"
#include "pcv/session/record_sink.hpp"
#include "pcv/session/selection_export.hpp"
#include "options/progress_bar.hpp"
#include "options/run_report.hpp"

namespace pcv::app {
namespace {

struct ConvertOptions {
  std::vector<std::string> files;  ///< inputs, then the output
  int pointFormat = -1;            ///< -1: the input's (3 for the cylinders, 7 for COPC)
  uint64_t points = 0;             ///< > 0: write the cylinder scene instead of inputs
  uint64_t seed = 1;
  uint32_t chunkSize = 50000;
  bool copc = false;               ///< write COPC whatever the output's name
  uint64_t memoryBytes = 0;        ///< COPC: host memory budget; 0: half of RAM
  std::string temporaryDirectory;  ///< COPC: where temporary files go; empty: beside the output
  uint32_t nodePoints = 100000;    ///< COPC: most points of a leaf
  std::string sort = "auto";       ///< COPC: where keys are sorted (octreeSamplerNames)
  bool quiet = false;
  bool overwrite = false;              ///< replace an existing output (never an input)
  bool tiles = false;                  ///< one COPC per input into a folder, and a VPC
  std::string vpcName = "dataset.vpc";  ///< --tiles: the VPC written in the folder
  ClipFlags clip;      ///< write only what the box or slab keeps
  FilterFlags filter;  ///< and what the filters keep
};

/// The cylinder scene as records, within its reach (cylinderSetReach).
std::unique_ptr<PointRecordStream> cylinderStream(uint64_t count, uint64_t seed, int format) {
  CylinderSet scene = makeCylinderSet(seed);
  const Box3d bounds = cylinderSetReach(scene);
  return producedRecords(std::make_shared<CylinderProducer>(std::move(scene), count), bounds,
                         glm::dvec3(0.0), format);
}

/// Opens the records to write (the inputs merged, or the cylinders); called again for a second
/// pass. COPC takes point format 7 for the cylinders and picks 6, 7 or 8 for the rest itself.
PointRecordSource recordSource(const ConvertOptions& options,
                               const std::vector<std::string>& inputs, CloudFileKind kind) {
  const bool copc = kind == CloudFileKind::Copc;
  if (options.points > 0) {
    if (!inputs.empty()) throw InputError("--points writes the cylinder scene: give no inputs");
    const int format = options.pointFormat >= 0 ? options.pointFormat : (copc ? 7 : 3);
    if (!options.clip.box.empty() || !options.clip.slab.empty() ||
        pointFilterFrom(options.filter).active()) {
      throw InputError("--points writes the whole cylinder scene: clip and filter flags select "
                       "from input files");
    }
    return [=] { return cylinderStream(options.points, options.seed, format); };
  }
  if (inputs.empty()) {
    throw InputError("convert needs at least one input before " + options.files.back());
  }
  const PointSelection selection{.clip = clipSettingsFrom(options.clip),
                                 .filter = pointFilterFrom(options.filter)};
  if (selection.active()) {
    // The selection at full resolution; of COPC files and tiles only what meets the clip box is
    // read. COPC needs the count first: a first pass counts what is kept.
    return selectedFileRecords(inputs, copc ? -1 : options.pointFormat, selection, copc);
  }
  return pointFileRecords(inputs, copc ? -1 : options.pointFormat);
}

/// LAS or LAZ: the records copied batch by batch through the record sink.
void writeLasOrLaz(const PointRecordSource& source, const std::string& output,
                   const RecordSinkOptions& sink, const ConvertOptions& options,
                   CopcWriteProgress& progress) {
  std::unique_ptr<ProgressBar> bar;
  if (!options.quiet) {
    bar = std::make_unique<ProgressBar>(
        [&](double seconds) {
          const uint64_t total = std::max<uint64_t>(1, progress.pointsTotal);
          const uint64_t written = progress.pointsWritten;
          return conversionState(double(written) / double(total), double(written), seconds,
                                 millions(written) + " of " + millions(total) + " points");
        },
        "converting");
  }
  const RecordSinkSummary summary = writePointRecords(source, output, sink, &progress);
  bar.reset();
  const char* format = cloudFileKindName(summary.kind);
  runReport()["convert"] = {{"output", output},
                            {"points", summary.points},
                            {"format", format},
                            {"pointFormat", summary.pointFormat}};
  std::printf("%s: %llu points, %s, point format %d\n", output.c_str(),
              static_cast<unsigned long long>(summary.points), format, summary.pointFormat);
}

/// The COPC file written and where the time went, for --report.
void reportCopc(const std::string& output, const CopcWriteSummary& summary, const char* sampler) {
  nlohmann::json phaseSeconds = {{"total", summary.phases.totalSeconds}};
  for (const CopcPhase& phase : copcPhases(summary.phases)) phaseSeconds[phase.key] = phase.seconds;
  runReport()["convert"] = {{"output", output},
                            {"points", summary.pointCount},
                            {"format", "COPC"},
                            {"pointFormat", summary.pointFormat},
                            {"nodes", summary.nodeCount},
                            {"pointsPerLevel", summary.pointsPerLevel},
                            {"partsBuilt", summary.partsBuilt},
                            {"temporaryBytes", summary.temporaryBytes},
                            {"sampler", sampler},
                            {"phaseSeconds", phaseSeconds}};
}

void writeCopc(const PointRecordSource& source, const std::string& output, RecordSinkOptions sink,
               const ConvertOptions& options, CopcWriteProgress& progress) {
  std::string samplerNote;
  const std::unique_ptr<OctreeLodSampler> sampler = chooseOctreeSampler(options.sort, &samplerNote);
  if (!options.quiet) std::fprintf(stderr, "pcv: %s\n", samplerNote.c_str());
  std::unique_ptr<ProgressBar> bar;
  if (!options.quiet) bar = copcConversionBar(progress);
  sink.copcOptions = {.memoryBytes = options.memoryBytes,
                      .tempDirectory = options.temporaryDirectory,
                      .maxPointsPerNode = options.nodePoints,
                      .pointFormat = options.pointFormat,
                      .sampler = sampler.get()};
  const CopcWriteSummary summary = *writePointRecords(source, output, sink, &progress).copc;
  bar.reset();
  reportCopc(output, summary, sampler->name());
  std::printf("%s: %llu points, COPC, point format %d, %llu nodes in %zu levels", output.c_str(),
              static_cast<unsigned long long>(summary.pointCount), summary.pointFormat,
              static_cast<unsigned long long>(summary.nodeCount), summary.pointsPerLevel.size());
  if (summary.temporaryBytes > 0) {
    std::printf(" (%llu parts through %s of temporary files, --memory %s)",
                static_cast<unsigned long long>(summary.partsBuilt),
                formatBytes(double(summary.temporaryBytes)).c_str(),
                formatBytes(double(summary.memoryBudgetBytes)).c_str());
  }
  std::printf("\n");
  // Even with --quiet: one line that says where the time went, for the benchmarks.
  std::fprintf(stderr, "pcv: %s\n", describeCopcPhases(summary.phases).c_str());
}

/// The output's kind, once it is known that writing it loses nothing: it is not an input (even
/// with --overwrite), and it exists only with --overwrite, which the message explains the way
/// `pcv convert *.las` reaches it.
CloudFileKind checkExistingOutput(const std::string& output, const RecordSinkOptions& sink) {
  try {
    return checkRecordOutput(output, sink);
  } catch (const OutputExistsError&) {
    if (namesAnInput(output, sink.output) || sink.output.existing == ExistingOutput::Replace) throw;
    throw OutputExistsError(
        output +
        ": exists, and convert writes its inputs into the last file named, which would "
        "replace it (a pattern such as *.las names no output); name a new file last, "
        "or pass --overwrite to replace it");
  }
}

/// --tiles: the options that apply to each tile's conversion; refuses those that do not.
void runTiles(const ConvertOptions& options) {
  if (options.points > 0) throw InputError("--tiles converts input tiles: leave out --points");
  if (options.sort == "cuda") {
    throw InputError("--tiles converts several tiles at once on the CPU: leave out --sort cuda");
  }
  runConvertTiles({.paths = options.files,
                   .vpcName = options.vpcName,
                   .overwrite = options.overwrite,
                   .memoryBytes = options.memoryBytes,
                   .temporaryDirectory = options.temporaryDirectory,
                   .nodePoints = options.nodePoints,
                   .pointFormat = options.pointFormat,
                   .quiet = options.quiet});
}

void runConvert(const ConvertOptions& options) {
  if (options.tiles) {
    // --tiles converts each tile whole; a selection is a plain convert's job.
    if (!options.clip.box.empty() || !options.clip.slab.empty() ||
        pointFilterFrom(options.filter).active()) {
      throw InputError("--tiles converts whole tiles: leave out the clip and filter options (a "
                       "convert without --tiles writes a selection)");
    }
    return runTiles(options);
  }
  std::vector<std::string> inputs = options.files;
  const std::string output = inputs.back();
  inputs.pop_back();
  if (inputs.empty() && options.points == 0) {
    throw InputError("convert needs its inputs, then the output: pcv convert IN... OUT.laz (" +
                     output + " was taken as the output)");
  }
  RecordSinkOptions sink{
      .output = {.existing = options.overwrite ? ExistingOutput::Replace : ExistingOutput::Refuse},
      .copc = options.copc,
      .chunkPoints = options.chunkSize};
  sink.output.inputs.assign(inputs.begin(), inputs.end());
  // Before anything is read: `pcv convert *.las` names the last tile as the output.
  const CloudFileKind kind = checkExistingOutput(output, sink);
  const PointRecordSource source = recordSource(options, inputs, kind);
  CopcWriteProgress progress;
  InterruptSignals signals(progress.cancel);
  try {
    if (kind == CloudFileKind::Copc) {
      writeCopc(source, output, sink, options, progress);
    } else {
      writeLasOrLaz(source, output, sink, options, progress);
    }
  } catch (const ConversionCancelled&) {
    // Everything temporary is gone by now; end as the signal asks.
    signals.endAsSignalled();
    throw;
  }
}

}  // namespace

void addConvertCommand(CLI::App& cli) {
  auto options = std::make_shared<ConvertOptions>();
  CLI::App* convert = cli.add_subcommand(
      "convert",
      "Write LAS, LAZ or COPC (a LAZ octree for streaming) from any point files (merged), or the "
      "cylinder scene");
  convert->add_option("files", options->files, "Inputs, then the output (.las, .laz or .copc.laz; with --tiles, a folder)")
      ->required();
  convert
      ->add_option("--point-format", options->pointFormat,
                   "LAS point format of the output (COPC: 6, 7 or 8)")
      ->check(CLI::Range(0, 10));
  convert->add_option("--points", options->points, "Write the cylinder scene with N points");
  convert->add_option("--seed", options->seed, "Seed of the cylinder scene");
  convert->add_option("--chunk-size", options->chunkSize, "LAZ points per chunk")
      ->check(CLI::Range(1u, 100000000u));
  convert->add_flag("--copc", options->copc, "Write COPC whatever the output's name (.laz)");
  convert
      ->add_option("--memory", options->memoryBytes,
                   "COPC: host memory to use, e.g. 8G (default: half of RAM); larger inputs go "
                   "through temporary files")
      ->transform(CLI::AsSizeValue(false));
  convert->add_option("--tmp", options->temporaryDirectory,
                      "COPC: folder for temporary files (default: the output's)");
  convert
      ->add_option("--node-points", options->nodePoints,
                   "COPC: a node holding more points is split (default 100000)")
      ->check(CLI::Range(1u, 100000000u));
  convert
      ->add_option("--sort", options->sort,
                   "COPC: where the octree's keys are sorted and its levels sampled: auto (the "
                   "GPU when there is one), cuda or cpu; the output is the same")
      ->check(CLI::IsMember(octreeSamplerNames()));
  convert->add_flag("--tiles", options->tiles,
                    "Write one COPC file per input tile (files, folders, a .vpc) into the output "
                    "folder, NAME.copc.laz, and a VPC over them; several tiles at once on all "
                    "cores, and shared among the ranks under mpirun");
  convert->add_option("--vpc", options->vpcName,
                      "--tiles: the VPC's file name in the output folder (default dataset.vpc)");
  convert->add_flag("--overwrite", options->overwrite,
                    "Replace an output file that exists (an input is never replaced); without "
                    "it convert refuses and writes nothing");
  convert->add_flag("--quiet,-q", options->quiet, "No progress bar");
  addClipFlags(*convert, options->clip);
  addFilterFlags(*convert, options->filter);
  addReportOption(*convert);
  convert->callback([options] { runConvert(*options); });
}

}  // namespace pcv::app
