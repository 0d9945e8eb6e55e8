#include "frame_pipeline.hpp"

#include <chrono>

#include "pcv/core/stopwatch.hpp"

namespace pcv::app {
namespace {

using Clock = SteadyClock;

}  // namespace

FramePipeline::FramePipeline(FrameSink& sink, int width, int height, int buffers) : sink_(sink) {
  images_.reserve(size_t(buffers));
  for (int i = 0; i < buffers; ++i) {
    images_.emplace_back(width, height);
    free_.push_back(&images_.back());
  }
  for (int i = 0; i < sink.workers(); ++i) workers_.emplace_back([this] { work(); });
}

FramePipeline::~FramePipeline() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  for (std::thread& worker : workers_) worker.join();
}

void FramePipeline::rethrowFailure() {
  if (failure_) std::rethrow_exception(failure_);
}

Image& FramePipeline::acquire() {
  const Clock::time_point start = Clock::now();
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [this] { return !free_.empty() || failure_; });
  rethrowFailure();
  waitSeconds_ += secondsSince(start);
  Image* image = free_.front();
  free_.pop_front();
  return *image;
}

void FramePipeline::submit(Image& image, uint64_t index) {
  {
    std::lock_guard lock(mutex_);
    queued_.emplace_back(&image, index);
  }
  changed_.notify_all();
}

void FramePipeline::finish() {
  {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return (queued_.empty() && writing_ == 0) || failure_; });
    rethrowFailure();
  }
  sink_.finish();
}

double FramePipeline::writeSeconds() const {
  std::lock_guard lock(mutex_);
  return writeSeconds_;
}

void FramePipeline::work() {
  std::unique_lock lock(mutex_);
  while (true) {
    // After an error nothing more is written: the renderer sees it at its next acquire().
    changed_.wait(lock, [this] { return stopping_ || failure_ || !queued_.empty(); });
    if (failure_ || queued_.empty()) return;
    const auto [image, index] = queued_.front();
    queued_.pop_front();
    ++writing_;
    lock.unlock();
    const Clock::time_point start = Clock::now();
    std::exception_ptr failure;
    try {
      sink_.write(index, *image);
    } catch (...) {
      failure = std::current_exception();
    }
    const double seconds = secondsSince(start);
    lock.lock();
    --writing_;
    writeSeconds_ += seconds;
    if (failure && !failure_) failure_ = failure;
    free_.push_back(image);
    changed_.notify_all();
  }
}

}  // namespace pcv::app
