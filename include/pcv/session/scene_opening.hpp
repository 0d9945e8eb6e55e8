/// @brief Files planned on a thread of their own, for a front end that keeps drawing meanwhile:
/// prepareScene() under the front end's limits (a dataset's headers, hierarchies and overview, or
/// the COPC cache a file too large for memory is converted to, cancellably), so the viewer's
/// Open and drop decide and convert exactly as `pcv render` and `pcv view FILE` do.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "pcv/io/copc_writer.hpp"
#include "pcv/session/scene_sources.hpp"
#include "pcv/session/stream_limits.hpp"
#include "pcv/stream/tile_forest.hpp"

namespace pcv {

class SceneOpening {
 public:
  /// Starts prepareScene({.files = files}, {.stream = limits}) on a thread: a missing COPC cache
  /// is converted there (convertFilesToCopc, the CPU sampler on all cores), a dataset's forest
  /// opened (openTileForest with `read`). No renderer is touched.
  SceneOpening(std::vector<std::string> files, const ReadOptions& read, const StreamLimits& limits);
  /// Cancels a conversion in progress (nothing is left behind) and waits for the thread.
  ~SceneOpening();
  SceneOpening(const SceneOpening&) = delete;
  SceneOpening& operator=(const SceneOpening&) = delete;

  /// Whether the thread is done; then the results below may be read.
  bool done() const { return done_.load(std::memory_order_acquire); }
  /// Waits until done().
  void wait();
  /// The files asked for, with what to read of each.
  const std::vector<std::string>& files() const { return files_; }
  const ReadOptions& read() const { return read_; }
  /// Names them, for a progress line.
  const std::string& label() const { return label_; }
  /// Seconds since the opening started.
  double seconds() const;
  /// Points converted so far and in all, while a COPC cache is made (0 of 0 otherwise).
  const CopcWriteProgress& conversion() const { return conversion_; }

  /// After done(): the plan, with nothing missing, or why there is none (empty: none failed).
  const ScenePlan& plan() const { return plan_; }
  const std::string& error() const { return error_; }
  /// After done(): a dataset's forest, opened; null for other plans.
  const std::shared_ptr<const ForestNodeSource>& forest() const { return forest_; }
  /// After done(): what prepareScene said (the cache chosen or made), for the user.
  const std::vector<std::string>& notes() const { return notes_; }

 private:
  void run(const StreamLimits& limits);

  std::vector<std::string> files_;
  ReadOptions read_;
  std::string label_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  CopcWriteProgress conversion_;
  // Written by the thread before done_:
  ScenePlan plan_;
  std::shared_ptr<const ForestNodeSource> forest_;
  std::string error_;
  std::vector<std::string> notes_;
  std::atomic<bool> done_{false};
  std::thread thread_;
};

/// The plan for `files` when no thread is needed to make it: with `limits.inCore`, or files that
/// are no dataset (one file's header decides, or none: a format read whole), unless a COPC cache
/// is to be made. A file that cannot be planned is read whole: its reader says what is wrong.
/// Empty: a SceneOpening plans them.
std::optional<ScenePlan> planAtOnce(const std::vector<std::string>& files,
                                    const StreamLimits& limits);

}  // namespace pcv
