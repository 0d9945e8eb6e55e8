#include "pcv/session/edit_files.hpp"

#include <algorithm>
#include <optional>

#include "pcv/core/error.hpp"
#include "pcv/core/stopwatch.hpp"
#include "pcv/io/point_records.hpp"
#include "pcv/io/remote_source.hpp"
#include "pcv/session/edit_save.hpp"
#include "pcv/session/selection_export.hpp"

namespace pcv {

namespace fs = std::filesystem;

EditSavePlan planEditSave(const std::vector<std::string>& inputs, const EditSaveTarget& target,
                          std::span<const PointEdit> edits) {
  if (target.inPlace == !target.out.empty()) {
    throw InputError("edits are saved in place or to an output: give exactly one of them");
  }
  if (target.inPlace && target.overwrite) {
    throw InputError("saving in place rewrites the inputs: leave out --overwrite");
  }
  const std::vector<std::string> files = filesOfInputs(inputs);
  const bool dataset = std::any_of(inputs.begin(), inputs.end(), [](const std::string& input) {
    return namesDatasetFolderOrVpc(input);
  });
  if (files.empty()) throw InputError("the inputs hold no LAS, LAZ or COPC file to edit");
  for (const std::string& file : files) {
    if (target.inPlace && isRemoteLocation(file)) {
      throw InputError(file +
                       " is read-only: a file from a URL is not saved in place; save "
                       "the edits to a copy");
    }
  }
  EditSavePlan plan;
  plan.inPlace = target.inPlace;
  plan.writing = target.writing;
  const bool toFolder = files.size() > 1 || dataset || fs::is_directory(target.out);
  if (!target.inPlace && toFolder) {
    std::error_code error;
    fs::create_directories(target.out, error);
    if (!fs::is_directory(target.out)) {
      throw InputError(target.out + ": several files are saved into a folder, and " +
                       "this is not one that exists or can be made");
    }
  }
  std::vector<fs::path> localInputs;
  for (const std::string& file : files) {
    const fs::path output = target.inPlace ? fs::path(file)
                            : toFolder     ? fs::path(target.out) / fs::path(file).filename()
                                           : fs::path(target.out);
    plan.jobs.push_back({file, output});
    if (!isRemoteLocation(file)) localInputs.push_back(file);
  }
  plan.rules = target.inPlace ? OutputRules{.existing = ExistingOutput::Replace}
                              : OutputRules{.existing = target.overwrite ? ExistingOutput::Replace
                                                                         : ExistingOutput::Refuse,
                                            .inputs = localInputs};
  // Everything is checked before the first file is saved.
  for (const EditFileJob& job : plan.jobs) {
    checkEditOutput(job.input, job.output);
    checkOutput(job.output, plan.rules);
    if (!isRemoteLocation(job.input)) {
      checkEditsFit(job.input, openLasRecords(job.input)->format().pointFormat, edits);
    }
  }
  plan.classificationDataset = classificationDataset(files, edits);
  return plan;
}

FileEditSaved saveEditedFile(const EditFileJob& job, const EditSavePlan& plan,
                             std::span<const PointEdit> edits, const std::atomic<bool>& stop) {
  std::optional<DownloadedCopy> download;
  if (isRemoteLocation(job.input)) download.emplace(job.input, job.output);
  const fs::path local = download ? download->path() : fs::path(job.input);
  FileEditSaved saved;
  const SteadyClock::time_point evaluateStart = SteadyClock::now();
  saved.result = evaluateEdits(local, edits, &stop,
                               plan.classificationDataset ? &*plan.classificationDataset : nullptr);
  saved.evaluateSeconds = secondsSince(evaluateStart);
  // In place, a file nothing changed in is left alone.
  saved.saved = !(plan.inPlace && saved.result.changes.empty());
  if (saved.saved) {
    const SteadyClock::time_point saveStart = SteadyClock::now();
    saved.patch =
        saveFileChanges(local, job.output, saved.result.changes, plan.rules, &stop, plan.writing);
    saved.saveSeconds = secondsSince(saveStart);
  }
  return saved;
}

}  // namespace pcv
