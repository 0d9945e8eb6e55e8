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
#include "pcv/io/copc_writer.hpp"
#include "pcv/session/edit_files.hpp"
#include "pcv/session/edit_log.hpp"
#include "pcv/session/edit_save.hpp"
#include "pcv/session/point_edits.hpp"
#include "pcv/session/selection_export.hpp"

namespace pcv::app {
namespace {

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

/// Edits and saves one file; its part of the report.
nlohmann::json editFile(const EditFileJob& job, const EditSavePlan& plan,
                        const std::vector<PointEdit>& edits, const std::atomic<bool>& stop) {
  const FileEditSaved saved = saveEditedFile(job, plan, edits, stop);
  const FileEditResult& result = saved.result;
  nlohmann::json file = {{"input", job.input},
                         {"output", job.output.string()},
                         {"points", result.points},
                         {"pointsRead", result.pointsRead},
                         {"pointFormat", result.pointFormat},
                         {"selected", result.selected},
                         {"changed", result.changed},
                         {"evaluateSeconds", saved.evaluateSeconds},
                         {"saved", saved.saved}};
  if (saved.saved) {
    file["format"] = cloudFileKindName(checkEditOutput(job.input, job.output));
    file["recordsRewritten"] = saved.patch.recordsRewritten;
    file["chunksReencoded"] = saved.patch.chunksReencoded;
    file["chunksCopied"] = saved.patch.chunksCopied;
    file["bytesWritten"] = saved.patch.bytesWritten;
    file["writtenInPlace"] = saved.patch.inPlace;
    file["chunksMoved"] = saved.patch.chunksMoved;
    file["saveSeconds"] = saved.saveSeconds;
  }
  if (!reportGoesToStdout()) {
    std::printf("%s: %llu of %llu points changed%s\n", job.output.string().c_str(),
                static_cast<unsigned long long>(result.changed),
                static_cast<unsigned long long>(result.points),
                saved.saved ? "" : " (not saved: nothing changed)");
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
  // Everything is checked before the first file is saved: the outputs, and that each file's
  // point format holds the classes set.
  if (options.inPlace == !options.out.empty()) {
    throw InputError("pcv edit saves --in-place or to --out PATH: give exactly one of them");
  }
  if (options.inPlace && options.overwrite) {
    throw InputError("--in-place rewrites the inputs: leave out --overwrite");
  }
  const EditSavePlan plan = planEditSave(
      options.inputs,
      {.inPlace = options.inPlace, .out = options.out, .overwrite = options.overwrite}, edits);

  std::atomic<bool> stop{false};
  InterruptSignals signals(stop);
  nlohmann::json files = nlohmann::json::array();
  uint64_t changedTotal = 0;
  // Ctrl+C stops the evaluation or the save; the temporary files (a download, a partial save)
  // are gone before the process ends as the signal would have ended it.
  try {
    for (const EditFileJob& job : plan.jobs) {
      nlohmann::json file = editFile(job, plan, edits, stop);
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
