/// @brief Frames rendered on one thread and written on others: a fixed set of image buffers
/// goes round from the renderer to the sink's workers and back, so the renderer draws frame
/// n + 1 while frame n is encoded, and memory stays bounded whatever the frame count.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "frame_sinks.hpp"
#include "pcv/core/image.hpp"

namespace pcv::app {

class FramePipeline {
 public:
  /// Starts the sink's workers; `buffers` images of width x height go round.
  FramePipeline(FrameSink& sink, int width, int height, int buffers);
  /// Stops the workers (after the frames queued, or at once after an error).
  ~FramePipeline();
  FramePipeline(const FramePipeline&) = delete;
  FramePipeline& operator=(const FramePipeline&) = delete;

  /// A free buffer to render into; waits while every buffer is queued or being written.
  /// Rethrows a worker's error.
  Image& acquire();
  /// Queues the buffer acquire() gave, as frame `index`.
  void submit(Image& image, uint64_t index);
  /// Waits for every queued frame to be written and finishes the sink; rethrows a worker's
  /// error.
  void finish();

  /// Seconds acquire() waited for a free buffer: the renderer waiting on the sink.
  double waitSeconds() const { return waitSeconds_; }
  /// Seconds the workers spent in the sink's write(), all together.
  double writeSeconds() const;

 private:
  void work();
  void rethrowFailure();

  FrameSink& sink_;
  std::vector<Image> images_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Image*> free_;
  std::deque<std::pair<Image*, uint64_t>> queued_;
  int writing_ = 0;
  bool stopping_ = false;
  std::exception_ptr failure_;
  double waitSeconds_ = 0.0;
  double writeSeconds_ = 0.0;  // guarded by mutex_
  std::vector<std::thread> workers_;
};

}  // namespace pcv::app
