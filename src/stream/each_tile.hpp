// Work on every tile of a dataset on all cores, failing as one tile at a time would.
#pragma once

#include <cstddef>
#include <mutex>
#include <string>

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

}  // namespace pcv
