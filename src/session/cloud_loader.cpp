#include "pcv/session/cloud_loader.hpp"

#include <chrono>
#include <cstdio>
#include <utility>

namespace pcv {

CloudLoader::CloudLoader(std::chrono::milliseconds previewInterval)
    : previewInterval_(previewInterval), thread_([this] { run(); }) {}

CloudLoader::~CloudLoader() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    jobs_.clear();
  }
  progress_.cancel = true;  // the reader checks it between blocks of points
  wake_.notify_all();
  thread_.join();
}

void CloudLoader::load(const std::vector<std::string>& files, bool replace,
                       const ReadOptions& options) {
  {
    std::lock_guard lock(mutex_);
    for (size_t i = 0; i < files.size(); ++i) {
      jobs_.push_back({.path = files[i], .replaces = replace && i == 0, .options = options});
    }
  }
  wake_.notify_all();
}

void CloudLoader::cancel() {
  std::lock_guard lock(mutex_);
  jobs_.clear();
  if (!current_.empty()) progress_.cancel = true;
}

std::vector<LoadedFile> CloudLoader::takeFinished() {
  std::lock_guard lock(mutex_);
  return std::exchange(finished_, {});
}

std::optional<LoadPreview> CloudLoader::takePreview() {
  std::lock_guard lock(mutex_);
  return std::exchange(preview_, std::nullopt);
}

void CloudLoader::forwardPreview(const PointPrefix& prefix) {
  const auto now = std::chrono::steady_clock::now();
  if (now - lastForward_ < previewInterval_ || prefix.points.size() <= forwardedPoints_) return;
  lastForward_ = now;
  // Copied outside the lock, so the UI thread never waits for a large copy.
  LoadPreview update = job_;
  update.origin = prefix.origin;
  update.hasColor = prefix.hasColor;
  update.firstPoint = forwardedPoints_;
  update.points.assign(prefix.points.begin() + std::ptrdiff_t(forwardedPoints_),
                       prefix.points.end());
  forwardedPoints_ = prefix.points.size();
  std::lock_guard lock(mutex_);
  if (preview_ && preview_->fileSerial == update.fileSerial) {
    // The UI has not taken the last update yet: extend it.
    preview_->points.insert(preview_->points.end(), update.points.begin(), update.points.end());
  } else {
    preview_ = std::move(update);
  }
}

bool CloudLoader::busy() const {
  std::lock_guard lock(mutex_);
  return !jobs_.empty() || !current_.empty() || !finished_.empty();
}

std::string CloudLoader::currentFile() const {
  std::lock_guard lock(mutex_);
  return current_;
}

size_t CloudLoader::queuedFiles() const {
  std::lock_guard lock(mutex_);
  return jobs_.size();
}

void CloudLoader::run() {
  progress_.onPrefix = [this](const PointPrefix& prefix) { forwardPreview(prefix); };
  for (;;) {
    Job job;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
      if (stopping_) return;
      job = std::move(jobs_.front());
      jobs_.pop_front();
      current_ = job.path;
      progress_.cancel = false;  // a cancel() before this job started was for the previous one
      progress_.bytesDone = 0;
      progress_.bytesTotal = 0;
    }
    ++job_.fileSerial;
    job_.path = job.path;
    job_.replaces = job.replaces;
    forwardedPoints_ = 0;
    lastForward_ = std::chrono::steady_clock::now();  // small files finish before any preview

    LoadedFile done;
    done.path = job.path;
    done.replaces = job.replaces;
    const auto start = std::chrono::steady_clock::now();
    try {
      FileSummary summary;
      done.cloud = readPointCloud(job.path, job.options, &progress_, &summary);
      done.warnings = std::move(summary.warnings);
      done.worldBounds = summary.worldBounds;
    } catch (const LoadCancelled& error) {
      done.cancelled = true;
      done.error = error.what();
    } catch (const std::exception& error) {  // InputError, OutOfMemoryError, bad_alloc
      done.error = error.what();
    }
    done.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::lock_guard lock(mutex_);
    current_.clear();
    preview_.reset();  // the file itself follows; its preview must not outlive it
    if (stopping_) return;
    finished_.push_back(std::move(done));
  }
}

}  // namespace pcv
