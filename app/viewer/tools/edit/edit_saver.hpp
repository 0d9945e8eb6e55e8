/// @brief Save and Save as of the viewer's edits: every check made at once (planEditSave), then
/// the files evaluated and saved on a thread of their own, one by one, with Cancel; what a
/// save did is kept for the section, stderr and the run report.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pcv/session/edit_files.hpp"
#include "viewer/tools/edit/background_job.hpp"

namespace pcv::app {

/// What a save that ended did.
struct EditSaveOutcome {
  bool inPlace = false;
  bool succeeded = false;
  std::string message;  ///< for the section and stderr
  uint64_t files = 0, filesSaved = 0, changed = 0;
  uint64_t filesWrittenInPlace = 0;  ///< of filesSaved: only their changed parts written
  std::vector<std::string> outputs;
};

class EditSaver {
 public:
  /// Starts saving `edits` of the files `inputs` to `target`. Throws InputError (what
  /// planEditSave throws) with nothing started; false when a save runs.
  bool start(const std::vector<std::string>& inputs, const EditSaveTarget& target,
             std::vector<PointEdit> edits);
  /// The outcome of the save that ended since the last call; empty while one runs or none did.
  std::optional<EditSaveOutcome> takeFinished() { return job_.takeFinished(); }
  /// Stops the save (the file being written is left as it was); a save running when the saver
  /// goes is stopped so and waited for.
  void cancel() { job_.cancel(); }
  bool running() const { return job_.running(); }

 private:
  BackgroundJob<EditSaveOutcome> job_;
};

}  // namespace pcv::app
