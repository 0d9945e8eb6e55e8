/// @brief "Export selection...": writes what the clip region (box, slab, polygon) and the
/// filters keep of the view's files, at full resolution, to LAS, LAZ or COPC on a thread of its
/// own, with progress and Cancel. The Filters and Polygon tools each hold one.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "pcv/io/copc_writer.hpp"
#include "viewer/tools/tool_host.hpp"

namespace pcv::app {

class SelectionExporter {
 public:
  explicit SelectionExporter(ToolHost& host) : host_(host) {}
  /// Cancels a running export and waits for its thread: a window closing does not wait for it
  /// to finish.
  ~SelectionExporter();
  SelectionExporter(const SelectionExporter&) = delete;
  SelectionExporter& operator=(const SelectionExporter&) = delete;

  /// Starts writing the selection of this frame's view to `path`; false (said in the error
  /// window) when one runs or there is no file to export from.
  bool start(const std::string& path);
  /// True once the export started last has ended (or when none was started); says the outcome
  /// on stderr, and in the error window when it failed.
  bool done();
  void cancel();
  bool running() const { return job_ != nullptr; }
  /// The running export's progress, or null.
  const CopcWriteProgress* progress() const;
  /// What the export that ended last did; empty before the first.
  const std::string& lastOutcome() const { return lastOutcome_; }

 private:
  struct Job {
    CopcWriteProgress progress;
    std::thread thread;
    std::mutex mutex;
    bool finished = false;  ///< guarded
    std::string outcome;    ///< guarded: what happened, for the section and stderr
  };

  ToolHost& host_;
  std::unique_ptr<Job> job_;
  std::string lastOutcome_;
};

}  // namespace pcv::app
