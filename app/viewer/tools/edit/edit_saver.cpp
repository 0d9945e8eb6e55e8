#include "viewer/tools/edit/edit_saver.hpp"

#include "pcv/core/error.hpp"

namespace pcv::app {

EditSaver::~EditSaver() {
  if (!job_) return;
  job_->stop = true;
  if (job_->thread.joinable()) job_->thread.join();
}

bool EditSaver::start(const std::vector<std::string>& inputs, const EditSaveTarget& target,
                      std::vector<PointEdit> edits) {
  if (job_) return false;
  EditSavePlan plan = planEditSave(inputs, target, edits);
  job_ = std::make_unique<Job>();
  Job* job = job_.get();
  job->thread = std::thread([job, plan = std::move(plan), edits = std::move(edits)] {
    EditSaveOutcome outcome{.inPlace = plan.inPlace, .files = plan.jobs.size()};
    try {
      for (const EditFileJob& file : plan.jobs) {
        const FileEditSaved saved = saveEditedFile(file, plan, edits, job->stop);
        outcome.changed += saved.result.changed;
        if (saved.saved) {
          ++outcome.filesSaved;
          outcome.filesWrittenInPlace += saved.patch.inPlace ? 1 : 0;
          outcome.outputs.push_back(file.output.string());
        }
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
    const std::lock_guard lock(job->mutex);
    job->outcome = std::move(outcome);
    job->finished = true;
  });
  return true;
}

std::optional<EditSaveOutcome> EditSaver::takeFinished() {
  if (!job_) return std::nullopt;
  EditSaveOutcome outcome;
  {
    const std::lock_guard lock(job_->mutex);
    if (!job_->finished) return std::nullopt;
    outcome = std::move(job_->outcome);
  }
  job_->thread.join();
  job_.reset();
  return outcome;
}

void EditSaver::cancel() {
  if (job_) job_->stop = true;
}

}  // namespace pcv::app
