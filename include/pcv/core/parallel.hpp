/// @brief A minimal parallel-for over index ranges for the CPU paths (renderer, generator,
/// loaders). Chunks are contiguous so each thread streams through memory.
#pragma once

#include <cstdint>
#include <functional>

namespace pcv {

/// Threads parallelFor uses: hardware concurrency, or PCV_THREADS from the environment.
unsigned workerCount();

/// Calls body(begin, end) on disjoint sub-ranges covering [0, count), in parallel, and returns
/// when all are done. The first exception thrown by a body is rethrown here.
void parallelFor(uint64_t count, const std::function<void(uint64_t begin, uint64_t end)>& body,
                 uint64_t minChunk = 1 << 16);

}  // namespace pcv
