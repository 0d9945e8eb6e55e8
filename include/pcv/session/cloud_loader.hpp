/// @brief Loads point cloud files on a thread of its own, so the viewer keeps drawing (and shows
/// a progress bar) while a file is parsed; each file is handed over as soon as it is done, so
/// the first of several files appears before the last is read. While a large binary file is read,
/// its decoded prefix is forwarded as a preview, so points appear while the bar advances.
/// Destroying the loader cancels the file in progress (LoadCancelled) and waits for the thread.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "pcv/core/point_cloud.hpp"
#include "pcv/io/point_cloud_reader.hpp"

namespace pcv {

/// One file's outcome, successful or not.
struct LoadedFile {
  std::string path;
  PointCloud cloud;       ///< empty when `error` is set
  bool replaces = false;  ///< first file of a batch that replaces what the viewer shows
  std::string error;      ///< what went wrong (file, byte offset, expectation); empty on success
  std::vector<std::string> warnings;  ///< what the reader said without failing
  Box3d worldBounds;                  ///< of the cloud's points, from their double coordinates
  bool cancelled = false;             ///< stopped by cancel(), not an error to show
  double seconds = 0.0;               ///< wall time of the read
};

/// Points of the file being read that arrived since the last takePreview. The points of one file
/// arrive in order, so appending each update to the previous ones rebuilds the file's prefix.
struct LoadPreview {
  uint64_t fileSerial = 0;    ///< which file these belong to; a new serial starts a new prefix
  std::string path;           ///< the file being read
  bool replaces = false;      ///< as LoadedFile::replaces
  glm::dvec3 origin{0.0};     ///< the file's origin; points are offsets from it
  bool hasColor = false;      ///< colours came from the file
  uint64_t firstPoint = 0;    ///< index in the file of points[0]
  std::vector<Point> points;  ///< the file's points [firstPoint, firstPoint + points.size())
};

class CloudLoader {
 public:
  /// Previews are forwarded at most once per `previewInterval` (copying costs the loading thread
  /// time, and the UI recolours and uploads each one); zero forwards every decoded slice.
  explicit CloudLoader(std::chrono::milliseconds previewInterval = std::chrono::milliseconds(250));
  ~CloudLoader();
  CloudLoader(const CloudLoader&) = delete;
  CloudLoader& operator=(const CloudLoader&) = delete;

  /// Queues `files` as one batch; with `replace`, the batch's first file replaces the scene
  /// (later ones are added to it), otherwise every file is added. `options` says what to read
  /// of each (an E57 scan ...).
  void load(const std::vector<std::string>& files, bool replace, const ReadOptions& options = {});
  /// Stops the file being read and drops the files still queued.
  void cancel();
  /// Files finished since the last call, in the order they were queued.
  std::vector<LoadedFile> takeFinished();
  /// Points of the file being read decoded since the last call; empty when none arrived. A file's
  /// pending preview is dropped when the file itself is handed over (takeFinished), so a preview
  /// never follows its own finished file.
  std::optional<LoadPreview> takePreview();

  /// True while a file is queued, being read, or finished but not yet taken.
  bool busy() const;
  /// The file being read (empty when idle) and how far it is, 0..1.
  std::string currentFile() const;
  double currentFraction() const { return progress_.fraction(); }
  /// Files queued behind the current one.
  size_t queuedFiles() const;

 private:
  struct Job {
    std::string path;
    bool replaces = false;
    ReadOptions options;
  };
  void run();
  /// On the loading thread: copies the part of `prefix` not forwarded yet into preview_, when
  /// the interval has passed since the last forward.
  void forwardPreview(const PointPrefix& prefix);

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Job> jobs_;                // guarded by mutex_
  std::vector<LoadedFile> finished_;    // guarded by mutex_
  std::string current_;                 // guarded by mutex_
  bool stopping_ = false;               // guarded by mutex_
  std::optional<LoadPreview> preview_;  // guarded by mutex_; for the file being read
  // The loading thread's own bookkeeping for the file being read (no other thread touches it).
  const std::chrono::milliseconds previewInterval_;
  LoadPreview job_;  // serial, path, replaces of the current file; its points stay empty
  uint64_t forwardedPoints_ = 0;
  std::chrono::steady_clock::time_point lastForward_;
  LoadProgress progress_;  // the reader's progress; cancel stops it
  std::thread thread_;     // last: starts once everything above exists
};

}  // namespace pcv
