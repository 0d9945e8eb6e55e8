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

/// Calls body(i) for every tile index i in [0, count) on all cores. When some fail, throws the
/// InputError of the lowest index, so a broken dataset says the same thing on every run.
template <typename Body>
void forEachTile(size_t count, const Body& body) {
  std::mutex failedMutex;
  size_t failedTile = count;
  std::string failure;
  parallelForEachDynamic(count, [&](size_t i) {
    try {
      body(i);
    } catch (const Error& error) {
      const std::lock_guard lock(failedMutex);
      if (i < failedTile) {
        failedTile = i;
        failure = error.what();
      }
    }
  });
  if (failedTile < count) throw InputError(failure);
}

/// forEachTile on `threads` threads of its own: for work that waits on round trips (tiles
/// behind URLs), not on cores.
template <typename Body>
void forEachTileOnThreads(size_t count, size_t threads, const Body& body) {
  std::mutex failedMutex;
  size_t failedTile = count;
  std::string failure;
  std::atomic<size_t> next{0};
  std::vector<std::thread> workers;
  for (size_t t = 0; t < std::max<size_t>(1, std::min(threads, count)); ++t) {
    workers.emplace_back([&] {
      for (size_t i = next++; i < count; i = next++) {
        try {
          body(i);
        } catch (const Error& error) {
          const std::lock_guard lock(failedMutex);
          if (i < failedTile) {
            failedTile = i;
            failure = error.what();
          }
        }
      }
    });
  }
  for (std::thread& worker : workers) worker.join();
  if (failedTile < count) throw InputError(failure);
}

}  // namespace pcv
