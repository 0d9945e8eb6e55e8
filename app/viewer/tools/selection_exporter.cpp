#include "viewer/tools/selection_exporter.hpp"

#include <cstdio>

#include "pcv/core/error.hpp"
#include "pcv/session/selection_export.hpp"

namespace pcv::app {

SelectionExporter::~SelectionExporter() {
  if (!job_) return;
  job_->progress.cancel = true;
  if (job_->thread.joinable()) job_->thread.join();
}

bool SelectionExporter::start(const std::string& path) {
  if (job_) {
    host_.showError("an export is running: cancel it or wait for it");
    return false;
  }
  const ViewDescription view = host_.describeView();
  if (view.files.empty()) {
    host_.showError("export selection: the cylinder scene has no file to export from");
    return false;
  }
  const PointSelection selection{.clip = view.settings.clip, .filter = view.settings.filter};
  job_ = std::make_unique<Job>();
  Job* job = job_.get();
  job->thread = std::thread([job, files = view.files, path, selection] {
    std::string outcome;
    try {
      // A file of that name is not replaced: the user picks another (the error says so).
      const ExportSummary summary = exportSelection(files, path, selection, &job->progress,
                                                    {.existing = ExistingOutput::Refuse});
      outcome = "exported " + std::to_string(summary.points) + " points to " + path + " (" +
                summary.format + ", point format " + std::to_string(summary.pointFormat) + ")";
    } catch (const ConversionCancelled&) {
      outcome = "export to " + path + " cancelled";
    } catch (const std::exception& error) {
      outcome = std::string("export failed: ") + error.what();
    }
    const std::lock_guard lock(job->mutex);
    job->outcome = outcome;
    job->finished = true;
  });
  std::fprintf(stderr, "pcv: exporting the selection to %s\n", path.c_str());
  return true;
}

bool SelectionExporter::done() {
  if (!job_) return true;
  {
    const std::lock_guard lock(job_->mutex);
    if (!job_->finished) return false;
    lastOutcome_ = job_->outcome;
  }
  job_->thread.join();
  job_.reset();
  std::fprintf(stderr, "pcv: %s\n", lastOutcome_.c_str());
  if (lastOutcome_.rfind("export failed", 0) == 0) host_.showError(lastOutcome_);
  return true;
}

void SelectionExporter::cancel() {
  if (job_) job_->progress.cancel = true;
}

const CopcWriteProgress* SelectionExporter::progress() const {
  return job_ ? &job_->progress : nullptr;
}

}  // namespace pcv::app
