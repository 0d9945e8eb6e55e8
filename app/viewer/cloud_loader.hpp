/// @brief Loads point cloud files on a thread of its own, so the viewer keeps drawing (and shows
/// a progress bar) while a file is parsed; each file is handed over as soon as it is done, so
/// the first of several files appears before the last is read. Destroying the loader cancels the
/// file in progress (LoadCancelled) and waits for the thread.
#pragma once

#include <condition_variable>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "pcv/core/point_cloud.hpp"
#include "pcv/io/point_cloud_reader.hpp"

namespace pcv::app {

/// One file's outcome, successful or not.
struct LoadedFile {
  std::string path;
  PointCloud cloud;        ///< empty when `error` is set
  bool replaces = false;   ///< first file of a batch that replaces what the viewer shows
  std::string error;       ///< what went wrong (file, byte offset, expectation); empty on success
  bool cancelled = false;  ///< stopped by cancel(), not an error to show
  double seconds = 0.0;    ///< wall time of the read
};

class CloudLoader {
 public:
  CloudLoader();
  ~CloudLoader();
  CloudLoader(const CloudLoader&) = delete;
  CloudLoader& operator=(const CloudLoader&) = delete;

  /// Queues `files` as one batch; with `replace`, the batch's first file replaces the scene
  /// (later ones are added to it), otherwise every file is added.
  void load(const std::vector<std::string>& files, bool replace);
  /// Stops the file being read and drops the files still queued.
  void cancel();
  /// Files finished since the last call, in the order they were queued.
  std::vector<LoadedFile> takeFinished();

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
  };
  void run();

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Job> jobs_;              // guarded by mutex_
  std::vector<LoadedFile> finished_;  // guarded by mutex_
  std::string current_;               // guarded by mutex_
  bool stopping_ = false;             // guarded by mutex_
  LoadProgress progress_;             // the reader's progress; cancel stops it
  std::thread thread_;                // last: starts once everything above exists
};

}  // namespace pcv::app
