/// @brief Work of the Edit tool that runs on a thread of its own while the viewer draws (a
/// save; the classification of a streamed scene's files): one at a time, with a flag the work
/// polls to stop and a count it raises to show progress, its outcome taken by the first frame
/// that finds it done.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>

namespace pcv::app {

template <typename Outcome>
class BackgroundJob {
 public:
  /// What runs on the thread: it polls `stop` and raises `progress`, and must not throw.
  using Work =
      std::function<Outcome(const std::atomic<bool>& stop, std::atomic<uint64_t>& progress)>;

  BackgroundJob() = default;
  /// Stops a running job and waits for it.
  ~BackgroundJob() {
    if (!job_) return;
    job_->stop = true;
    if (job_->thread.joinable()) job_->thread.join();
  }
  BackgroundJob(const BackgroundJob&) = delete;
  BackgroundJob& operator=(const BackgroundJob&) = delete;

  /// Starts `work`; false while a job runs or waits to be taken.
  bool start(Work work) {
    if (job_) return false;
    job_ = std::make_unique<Job>();
    Job* job = job_.get();
    job->thread = std::thread([job, work = std::move(work)] {
      Outcome outcome = work(job->stop, job->progress);
      const std::lock_guard lock(job->mutex);
      job->outcome = std::move(outcome);
    });
    return true;
  }
  /// The outcome of the job that ended since the last call; empty while one runs or none did.
  std::optional<Outcome> takeFinished() {
    if (!job_) return std::nullopt;
    std::optional<Outcome> outcome;
    {
      const std::lock_guard lock(job_->mutex);
      if (!job_->outcome) return std::nullopt;
      outcome = std::move(job_->outcome);
    }
    job_->thread.join();
    job_.reset();
    return outcome;
  }
  void cancel() {
    if (job_) job_->stop = true;
  }
  bool running() const { return job_ != nullptr; }
  /// The count the work raised so far (0 with no job).
  uint64_t progress() const { return job_ ? job_->progress.load() : 0; }

 private:
  struct Job {
    std::thread thread;
    std::atomic<bool> stop{false};
    std::atomic<uint64_t> progress{0};
    std::mutex mutex;
    std::optional<Outcome> outcome;  ///< guarded: set when the work ended
  };
  std::unique_ptr<Job> job_;
};

}  // namespace pcv::app
