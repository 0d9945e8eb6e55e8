/// @brief A minimal parallel-for over index ranges for the CPU paths (renderer, generator,
/// loaders). Chunks are contiguous so each thread streams through memory.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace pcv {

/// The CPUs this process may run on, at least 1: its affinity mask, which is smaller than the
/// machine under taskset, a container's cpuset or mpirun's binding of a rank to its cores.
unsigned usableCores();

/// Threads parallelFor uses: usableCores(), or PCV_THREADS from the environment, at most the
/// calling thread's WorkerLimit.
unsigned workerCount();

/// Caps workerCount() on the calling thread while it lives, and on the threads that run the
/// ranges of its parallelFor calls (so nested calls obey it too): how several conversions share
/// the cores, each taking its part instead of every one taking them all.
class WorkerLimit {
 public:
  explicit WorkerLimit(unsigned threads);  ///< 0: no cap
  ~WorkerLimit();
  WorkerLimit(const WorkerLimit&) = delete;
  WorkerLimit& operator=(const WorkerLimit&) = delete;

  /// The calling thread's cap; 0 when none (to carry it to a thread started elsewhere).
  static unsigned current();

 private:
  unsigned previous_;
};

/// Calls body(begin, end) on disjoint sub-ranges covering [0, count), in parallel, and returns
/// when all are done. The first exception thrown by a body is rethrown here.
void parallelFor(uint64_t count, const std::function<void(uint64_t begin, uint64_t end)>& body,
                 uint64_t minChunk = 1 << 16);

/// memcpy of `bytes` on all cores, each thread copying a contiguous part: for large copies, and
/// for those that first touch the destination's pages (the faults then come on all cores too).
void copyInParallel(void* to, const void* from, size_t bytes);

/// Calls body(i) for every i in [0, count) on all cores, each thread taking the next index from
/// a shared counter: for items of very different costs (octree nodes, chunks), where contiguous
/// ranges would leave one thread with the expensive end.
template <typename Body>
void parallelForEachDynamic(size_t count, const Body& body) {
  std::atomic<size_t> next{0};
  parallelFor(
      std::min<uint64_t>(workerCount(), count),
      [&](uint64_t, uint64_t) {
        for (size_t i; (i = next.fetch_add(1)) < count;) body(i);
      },
      1);
}

/// Keeps in order, on all cores, the i in [0, count) for which kept(i): each thread's part of the
/// range counts its own, sized(total) is told how many there are, then place(i, rank) gets each
/// with its rank among them (0, 1, ...), every part writing after the parts before it. kept(i)
/// is called twice for each i, so it must give the same answer both times.
template <typename Kept, typename Sized, typename Place>
void parallelKeepInOrder(uint64_t count, const Kept& kept, const Sized& sized, const Place& place) {
  const uint64_t parts = std::max<uint64_t>(1, std::min<uint64_t>(workerCount(), count >> 12));
  const uint64_t partSize = (count + parts - 1) / parts;
  std::vector<uint64_t> starts(parts + 1, 0);
  parallelForEachDynamic(parts, [&](size_t p) {
    const uint64_t end = std::min(count, (p + 1) * partSize);
    for (uint64_t i = p * partSize; i < end; ++i) starts[p + 1] += kept(i) ? 1 : 0;
  });
  for (uint64_t p = 0; p < parts; ++p) starts[p + 1] += starts[p];
  sized(starts[parts]);
  parallelForEachDynamic(parts, [&](size_t p) {
    const uint64_t end = std::min(count, (p + 1) * partSize);
    uint64_t rank = starts[p];
    for (uint64_t i = p * partSize; i < end; ++i) {
      if (kept(i)) place(i, rank++);
    }
  });
}

}  // namespace pcv
