#include "viewer/tools/edit/edit_saver.hpp"

#include "pcv/core/error.hpp"

namespace pcv::app {

bool EditSaver::start(const std::vector<std::string>& inputs, const EditSaveTarget& target,
                      std::vector<PointEdit> edits) {
  if (job_.running()) return false;
  EditSavePlan plan = planEditSave(inputs, target, edits);
  return job_.start([plan = std::move(plan), edits = std::move(edits)](
                        const std::atomic<bool>& stop, std::atomic<uint64_t>& filesDone) {
    EditSaveOutcome outcome{.inPlace = plan.inPlace, .files = plan.jobs.size()};
    try {
      for (const EditFileJob& file : plan.jobs) {
        const FileEditSaved saved = saveEditedFile(file, plan, edits, stop);
        outcome.changed += saved.result.changed;
        if (saved.saved) {
          ++outcome.filesSaved;
          outcome.filesWrittenInPlace += saved.patch.inPlace ? 1 : 0;
          outcome.outputs.push_back(file.output.string());
        }
        ++filesDone;
      }
      outcome.succeeded = true;
      outcome.message = std::to_string(outcome.changed) + " points changed, " +
                        std::to_string(outcome.filesSaved) + " of " +
                        std::to_string(outcome.files) + " files saved" +
                        (plan.inPlace ? " in place" : "");
    } catch (const ConversionCancelled&) {
      outcome.message = "the save was cancelled; the file being written is as it was";
    } catch (const std::exception& error) {
      outcome.message = std::string("the save failed: ") + error.what();
    }
    return outcome;
  });
}

}  // namespace pcv::app
