// Work on every tile of a dataset on all cores, failing as one tile at a time would.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "pcv/core/error.hpp"
#include "pcv/core/parallel.hpp"

namespace pcv {

/// The lowest tile index that failed so far and its error: later tiles need not be tried, since
/// only an earlier failure could change what is reported.
class FirstTileFailure {
 public:
  explicit FirstTileFailure(size_t count) : failedTile_(count), count_(count) {}

  /// Whether tile `i` can still change the outcome (no tile before it failed).
  bool worthTrying(size_t i) const { return i < failedTile_.load(std::memory_order_relaxed); }

  void record(size_t i, const Error& error) {
    const std::lock_guard lock(mutex_);
    if (i < failedTile_) {
      failedTile_ = i;
      failure_ = error.what();
    }
  }

  /// Throws the InputError of the lowest failed index, if any.
  void rethrow() const {
    if (failedTile_ < count_) throw InputError(failure_);
  }

 private:
  std::mutex mutex_;
  std::atomic<size_t> failedTile_;
  size_t count_;
  std::string failure_;
};

/// Calls body(i) for every tile index i in [0, count) on all cores. When some fail, throws the
/// InputError of the lowest index, so a broken dataset says the same thing on every run; tiles
/// after a failed one are not started (every tile before it still is, which keeps the error the
/// same whatever the threads' order), so a dataset with a bad tile fails at once.
template <typename Body>
void forEachTile(size_t count, const Body& body) {
  FirstTileFailure failures(count);
  parallelForEachDynamic(count, [&](size_t i) {
    if (!failures.worthTrying(i)) return;
    try {
      body(i);
    } catch (const Error& error) {
      failures.record(i, error);
    }
  });
  failures.rethrow();
}

/// forEachTile on `threads` threads of its own: for work that waits on round trips (tiles
/// behind URLs), not on cores. Tiles are started in index order, so at most `threads` are tried
/// past the first that fails.
template <typename Body>
void forEachTileOnThreads(size_t count, size_t threads, const Body& body) {
  FirstTileFailure failures(count);
  std::atomic<size_t> next{0};
  std::vector<std::thread> workers;
  for (size_t t = 0; t < std::max<size_t>(1, std::min(threads, count)); ++t) {
    workers.emplace_back([&] {
      for (size_t i = next++; i < count && failures.worthTrying(i); i = next++) {
        try {
          body(i);
        } catch (const Error& error) {
          failures.record(i, error);
        }
      }
    });
  }
  for (std::thread& worker : workers) worker.join();
  failures.rethrow();
}

}  // namespace pcv
