#include "edit_command.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "options/clip_options.hpp"
#include "options/filter_options.hpp"
#include "options/interrupt_signals.hpp"
#include "options/run_report.hpp"
#include "pcv/core/error.hpp"
#include "pcv/core/stopwatch.hpp"
#include "pcv/io/copc_writer.hpp"
#include "pcv/io/remote_source.hpp"
#include "pcv/session/edit_log.hpp"
#include "pcv/session/edit_save.hpp"
#include "pcv/session/point_edits.hpp"
#include "pcv/session/selection_export.hpp"

namespace pcv::app {
namespace {

namespace fs = std::filesystem;

struct EditOptions {
  std::vector<std::string> inputs;  ///< files, folders, .vpc
  ClipFlags clip;
  FilterFlags filter;
  std::optional<int64_t> setClass;
  bool remove = false;   ///< --delete
  bool restore = false;  ///< --restore
  bool inPlace = false;
  std::string out;
  bool overwrite = false;
  std::string log;    ///< --log: the edits applied, as JSON
  std::string apply;  ///< --apply: a log to replay
};

/// One file to save: where it is read and where it goes.
struct FileJob {
  std::string input;
  fs::path output;
};

/// The edit the flags describe; throws InputError for no action or more than one.
PointEdit editFromFlags(const EditOptions& options) {
  const int actions =
      int(options.setClass.has_value()) + int(options.remove) + int(options.restore);
  if (actions != 1) {
    throw InputError(std::string(actions == 0 ? "no action" : "more than one action") +
                     ": pcv edit takes one of --set-class N, --delete, --restore (or --apply LOG)");
  }
  PointEdit edit;
  edit.selection = {.clip = clipSettingsFrom(options.clip),
                    .filter = pointFilterFrom(options.filter)};
  if (options.setClass) {
    if (*options.setClass < 0 || *options.setClass > 255) {
      throw InputError("--set-class " + std::to_string(*options.setClass) +
                       ": expected a LAS class 0-255 (point formats 0-5 hold 0-31)");
    }
    edit.action = EditAction::SetClass;
    edit.classification = uint32_t(*options.setClass);
  } else {
    edit.action = options.remove ? EditAction::Delete : EditAction::Restore;
  }
  return edit;
}

/// True when a selection or action flag is given (which --apply replaces).
bool givesAnEdit(const EditOptions& o) {
  return o.setClass || o.remove || o.restore || !o.clip.box.empty() || !o.clip.slab.empty() ||
         !o.clip.polygon.empty() || !o.filter.classes.empty() || !o.filter.excludeClasses.empty() ||
         !o.filter.returns.empty() || !o.filter.ranges.empty();
}

/// The files of the inputs (folders and VPCs stand for their tiles) and where each is saved.
std::vector<FileJob> plannedJobs(const EditOptions& options) {
  if (options.inPlace == !options.out.empty()) {
    throw InputError("pcv edit saves --in-place or to --out PATH: give exactly one of them");
  }
  if (options.inPlace && options.overwrite) {
    throw InputError("--in-place rewrites the inputs: leave out --overwrite");
  }
  const std::vector<std::string> files = filesOfInputs(options.inputs);
  const bool dataset =
      std::any_of(options.inputs.begin(), options.inputs.end(),
                  [](const std::string& input) { return namesDatasetFolderOrVpc(input); });
  if (files.empty()) throw InputError("pcv edit: the inputs hold no LAS, LAZ or COPC file");
  for (const std::string& file : files) {
    if (options.inPlace && isRemoteLocation(file)) {
      throw InputError(file +
                       " is read-only: a file from a URL is not saved in place; save "
                       "the edits to a copy with --out");
    }
  }
  std::vector<FileJob> jobs;
  const bool toFolder = files.size() > 1 || dataset || fs::is_directory(options.out);
  if (!options.inPlace && toFolder) {
    std::error_code error;
    fs::create_directories(options.out, error);
    if (!fs::is_directory(options.out)) {
      throw InputError("--out " + options.out + ": several files are saved into a folder, and " +
                       "this is not one that exists or can be made");
    }
  }
  for (const std::string& file : files) {
    const fs::path output = options.inPlace ? fs::path(file)
                            : toFolder      ? fs::path(options.out) / fs::path(file).filename()
                                            : fs::path(options.out);
    jobs.push_back({file, output});
  }
  return jobs;
}

/// Edits and saves one file; its part of the report.
nlohmann::json editFile(const FileJob& job, const std::vector<PointEdit>& edits,
                        const OutputRules& rules, bool inPlace, const std::atomic<bool>& stop) {
  // A file from a URL is fetched into a temporary copy beside its output, then read and saved
  // as a local one.
  std::optional<DownloadedCopy> download;
  if (isRemoteLocation(job.input)) download.emplace(job.input, job.output);
  const fs::path local = download ? download->path() : fs::path(job.input);
  const SteadyClock::time_point evaluateStart = SteadyClock::now();
  const FileEditResult result = evaluateEdits(local, edits, &stop);
  nlohmann::json file = {{"input", job.input},
                         {"output", job.output.string()},
                         {"points", result.points},
                         {"pointsRead", result.pointsRead},
                         {"pointFormat", result.pointFormat},
                         {"selected", result.selected},
                         {"changed", result.changed},
                         {"evaluateSeconds", secondsSince(evaluateStart)}};
  // In place, a file nothing changed in is left alone.
  file["saved"] = !(inPlace && result.changes.empty());
  if (file["saved"]) {
    const SteadyClock::time_point saveStart = SteadyClock::now();
    const RecordPatchSummary saved =
        saveFileChanges(local, job.output, result.changes, rules, &stop);
    file["format"] = cloudFileKindName(checkEditOutput(job.input, job.output));
    file["recordsRewritten"] = saved.recordsRewritten;
    file["chunksReencoded"] = saved.chunksReencoded;
    file["chunksCopied"] = saved.chunksCopied;
    file["bytesWritten"] = saved.bytesWritten;
    file["saveSeconds"] = secondsSince(saveStart);
  }
  if (!reportGoesToStdout()) {
    std::printf("%s: %llu of %llu points changed%s\n", job.output.string().c_str(),
                static_cast<unsigned long long>(result.changed),
                static_cast<unsigned long long>(result.points),
                file["saved"].get<bool>() ? "" : " (not saved: nothing changed)");
  }
  return file;
}

void runEdit(const EditOptions& options) {
  if (!options.apply.empty() && givesAnEdit(options)) {
    throw InputError(
        "--apply replays the edits of a log: leave out the selection and action "
        "flags");
  }
  std::vector<PointEdit> edits;
  if (options.apply.empty()) {
    edits.push_back(editFromFlags(options));
  } else {
    edits = readEditLog(options.apply);
  }
  for (const PointEdit& edit : edits) validateEdit(edit);
  const std::vector<FileJob> jobs = plannedJobs(options);

  // Everything is checked before the first file is saved: the outputs, and that each file's
  // point format holds the classes set.
  std::vector<fs::path> inputFiles;
  for (const FileJob& job : jobs) {
    if (!isRemoteLocation(job.input)) inputFiles.push_back(job.input);
  }
  const OutputRules rules =
      options.inPlace ? OutputRules{.existing = ExistingOutput::Replace}
                      : OutputRules{.existing = options.overwrite ? ExistingOutput::Replace
                                                                  : ExistingOutput::Refuse,
                                    .inputs = inputFiles};
  for (const FileJob& job : jobs) {
    checkEditOutput(job.input, job.output);
    checkOutput(job.output, rules);
    // A remote file's format is checked once it is fetched.
    if (!isRemoteLocation(job.input)) {
      checkEditsFit(job.input, openLasRecords(job.input)->format().pointFormat, edits);
    }
  }

  std::atomic<bool> stop{false};
  InterruptSignals signals(stop);
  nlohmann::json files = nlohmann::json::array();
  uint64_t changedTotal = 0;
  // Ctrl+C stops the evaluation or the save; the temporary files (a download, a partial save)
  // are gone before the process ends as the signal would have ended it.
  try {
    for (const FileJob& job : jobs) {
      nlohmann::json file = editFile(job, edits, rules, options.inPlace, stop);
      changedTotal += file["changed"].get<uint64_t>();
      files.push_back(std::move(file));
    }
  } catch (const ConversionCancelled&) {
    signals.endAsSignalled();
    throw;
  }
  if (!options.log.empty()) writeEditLog(options.log, edits);
  nlohmann::json& report = runReport()["edit"];
  report["edits"] = edits.size();
  report["files"] = std::move(files);
  report["changed"] = changedTotal;
}

}  // namespace

void addEditCommand(CLI::App& cli) {
  auto options = std::make_shared<EditOptions>();
  CLI::App* edit = cli.add_subcommand(
      "edit",
      "Set the LAS classification of selected points, or delete (the withheld flag) or restore "
      "them, in LAS, LAZ or COPC files; only what changed is rewritten");
  edit->add_option("inputs", options->inputs, "LAS, LAZ or COPC files, folders of them, .vpc")
      ->required();
  addClipFlags(*edit, options->clip);
  addFilterFlags(*edit, options->filter);
  // The flags select here what they draw in pcv render: their help says so.
  edit->get_option("--clip-box")
      ->description("Select the points in this box, x0,y0,z0,x1,y1,z1 (world coordinates)");
  edit->get_option("--clip-slab")
      ->description("Select the points within thickness/2 of a plane: nx,ny,nz,cx,cy,cz,thickness");
  edit->get_option("--clip-polygon")
      ->description(
          "Select the points over this polygon of world x,y vertices, "
          "x0,y0,x1,y1,x2,y2[,...] (a plan polygon, unbounded in z)");
  edit->get_option("--clip-keep")
      ->description(
          "inside: select the points in the box, slab and polygon; outside: those "
          "outside each");
  edit->get_option("--classes")->description("Select only these ASPRS classes, e.g. 2,6 or 3-5");
  edit->get_option("--exclude-classes")->description("Leave out these classes, e.g. 7,18");
  edit->get_option("--returns")
      ->description("Select only first, last or only (single) returns, or return number N (1-15)");
  edit->get_option("--range")->description(
      "Select only points whose attribute lies in MIN:MAX, e.g. intensity=100:2000 "
      "(any LAS field; repeatable; either bound may be empty)");
  edit->add_option("--set-class", options->setClass,
                   "Set the class of the selected points (0-255; point formats 0-5 hold 0-31)");
  edit->add_flag("--delete", options->remove,
                 "Delete the selected points: set the LAS withheld flag (kept in the file)");
  edit->add_flag("--restore", options->restore, "Restore the selected points: clear withheld");
  edit->add_flag("--in-place", options->inPlace,
                 "Save into each input (through a temporary file renamed over it)");
  edit->add_option("--out", options->out,
                   "Save to this file (one input) or into this folder (several)");
  edit->add_flag("--overwrite", options->overwrite,
                 "Replace an output file that exists (an input is never replaced)");
  edit->add_option("--log", options->log, "Write the edits applied as a JSON log to this file");
  edit->add_option("--apply", options->apply,
                   "Replay the edits of a log written by --log (instead of selection and action "
                   "flags)");
  addReportOption(*edit);
  edit->callback([options] {
    try {
      runEdit(*options);
    } catch (const Error& error) {
      // Scripts read why from the report as they read the figures of a success.
      runReport()["edit"]["error"] = error.what();
      runReport()["edit"]["errorKind"] =
          dynamic_cast<const InputError*>(&error) ? "input" : "failure";
      writeRunReport();
      throw;
    }
  });
}

}  // namespace pcv::app
