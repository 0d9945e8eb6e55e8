/// @brief Files read whole on the background loader, fed to a scene's parts as they arrive: the
/// decoded prefix of the file being read shown as a preview, each finished file merged in core.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pcv/core/bounds.hpp"
#include "pcv/session/cloud_loader.hpp"
#include "pcv/session/scene_parts.hpp"
#include "pcv/session/session_report.hpp"

namespace pcv {

/// What one WholeFileFeed::takeFinished handed over.
struct TakenFiles {
  size_t finished = 0;  ///< files the loader finished, failed or cancelled
  size_t added = 0;     ///< of them, the ones added to the parts' files read whole
};

class WholeFileFeed {
 public:
  /// `parts` and `report` must outlive the feed. The loader starts with the first read().
  WholeFileFeed(SceneParts& parts, const SessionReport& report);

  /// Queues `files` on the loader; with `replace` the first of them replaces the scene (and the
  /// stream shown is closed: files that replace the scene replace the stream too).
  void read(const std::vector<std::string>& files, bool replace, const ReadOptions& options);
  /// Stops the file being read, drops the files queued and what they finished or previewed.
  void cancel();
  /// Cancels a load in progress and waits for the loader's thread.
  void stop() { loader_.reset(); }
  /// Adds the files finished since the last call to the parts' files read whole (each failure or
  /// warning said), and ends the preview when any file finished.
  TakenFiles takeFinished();
  /// Shows the points of the file being read decoded since the last call; the bounds shown when
  /// they changed.
  std::optional<Box3d> takePreview();
  /// True while a file is queued, being read, or finished but not yet taken.
  bool busy() const { return loader_ && loader_->busy(); }
  /// The loader (progress, the file being read, cancel); null before the first read().
  CloudLoader* loader() { return loader_.get(); }

 private:
  SceneParts& parts_;
  const SessionReport& report_;
  std::unique_ptr<CloudLoader> loader_;
};

}  // namespace pcv
