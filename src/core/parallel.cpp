// parallelFor runs each range but the first on a thread of its own, as if started for it, but
// the threads are kept once their range is done and reused by later calls: starting and joining
// a thread per range cost about a millisecond a call at 16 threads, and pcv convert makes
// thousands of calls (a few per batch read, one per pinned buffer copied to or from the GPU).
// Calls made at the same time from different threads still each get threads of their own, so
// none waits for another's ranges (a viewer's frame for a loader's decoding, say).
#include "pcv/core/parallel.hpp"

#include <condition_variable>
#include <cstring>
#include <cstdlib>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#if defined(__linux__)
#include <sched.h>
#endif

namespace pcv {
namespace {

/// Threads that run one task at a time and wait, idle, for the next.
class ThreadCache {
 public:
  /// Runs `task` on an idle thread, or on a new one when none is idle.
  void run(std::function<void()> task) {
    Worker* worker = nullptr;
    {
      std::lock_guard lock(mutex_);
      if (idle_.empty()) {
        workers_.push_back(std::make_unique<Worker>());
        worker = workers_.back().get();
        worker->thread = std::thread([this, worker] { serve(*worker); });
      } else {
        worker = idle_.back();
        idle_.pop_back();
      }
    }
    {
      std::lock_guard lock(worker->mutex);
      worker->task = std::move(task);
    }
    worker->wake.notify_one();
  }

 private:
  struct Worker {
    std::thread thread;
    std::mutex mutex;
    std::condition_variable wake;
    std::function<void()> task;  ///< empty while idle
  };

  void serve(Worker& worker) {
    for (;;) {
      std::function<void()> task;
      {
        std::unique_lock lock(worker.mutex);
        worker.wake.wait(lock, [&] { return bool(worker.task); });
        task = std::move(worker.task);
        worker.task = nullptr;
      }
      task();
      task = nullptr;  // what it holds goes before the thread is handed out again
      std::lock_guard lock(mutex_);
      idle_.push_back(&worker);
    }
  }

  std::mutex mutex_;
  std::vector<std::unique_ptr<Worker>> workers_;
  std::vector<Worker*> idle_;
};

/// Never destroyed: its threads wait for work until the process ends.
ThreadCache& threadCache() {
  static ThreadCache* const cache = new ThreadCache;
  return *cache;
}

/// What a call shares with its ranges' threads, which may still hold it after the call returned.
struct CallState {
  std::atomic<unsigned> rangesLeft{0};  ///< ranges on other threads not yet done
  std::mutex errorMutex;
  std::exception_ptr firstError;

  void fail() {
    std::lock_guard lock(errorMutex);
    if (!firstError) firstError = std::current_exception();
  }
};

/// The calling thread's WorkerLimit; 0: none.
thread_local unsigned threadWorkerLimit = 0;

unsigned unlimitedWorkerCount() {
  if (const char* text = std::getenv("PCV_THREADS")) {
    const int requested = std::atoi(text);
    if (requested > 0) return unsigned(requested);
  }
  return usableCores();
}

}  // namespace

unsigned usableCores() {
#if defined(__linux__)
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  if (sched_getaffinity(0, sizeof(allowed), &allowed) == 0) {
    const int count = CPU_COUNT(&allowed);
    if (count > 0) return unsigned(count);
  }
#endif
  return std::max(1u, std::thread::hardware_concurrency());
}

WorkerLimit::WorkerLimit(unsigned threads) : previous_(threadWorkerLimit) {
  threadWorkerLimit = threads;
}

WorkerLimit::~WorkerLimit() {
  threadWorkerLimit = previous_;
}

unsigned WorkerLimit::current() {
  return threadWorkerLimit;
}

unsigned workerCount() {
  const unsigned count = unlimitedWorkerCount();
  return threadWorkerLimit > 0 ? std::min(count, threadWorkerLimit) : count;
}

void parallelFor(uint64_t count, const std::function<void(uint64_t, uint64_t)>& body,
                 uint64_t minChunk) {
  if (count == 0) return;
  const uint64_t maxThreads = std::max<uint64_t>(1, count / std::max<uint64_t>(1, minChunk));
  const unsigned threads = unsigned(std::min<uint64_t>(workerCount(), maxThreads));
  if (threads == 1) {
    body(0, count);
    return;
  }
  auto state = std::make_shared<CallState>();
  state->rangesLeft = threads - 1;
  for (unsigned t = 1; t < threads; ++t) {
    const uint64_t begin = count * t / threads;
    const uint64_t end = count * (t + 1) / threads;
    // `body` outlives the task: the call returns only once every range is done.
    auto range = [state, &body, begin, end, limit = threadWorkerLimit] {
      const WorkerLimit inherited(limit);
      try {
        body(begin, end);
      } catch (...) {
        state->fail();
      }
      if (state->rangesLeft.fetch_sub(1) == 1) state->rangesLeft.notify_all();
    };
    try {
      threadCache().run(range);
    } catch (...) {
      range();  // no thread to be had (the task was not handed out): the range runs here
    }
  }
  try {
    body(0, count / threads);
  } catch (...) {
    state->fail();
  }
  for (unsigned left; (left = state->rangesLeft.load()) > 0;) state->rangesLeft.wait(left);
  if (state->firstError) std::rethrow_exception(state->firstError);
}

void copyInParallel(void* to, const void* from, size_t bytes) {
  auto* target = static_cast<uint8_t*>(to);
  const auto* source = static_cast<const uint8_t*>(from);
  parallelFor(bytes, [&](uint64_t begin, uint64_t end) {
    std::memcpy(target + begin, source + begin, end - begin);
  });
}

}  // namespace pcv
