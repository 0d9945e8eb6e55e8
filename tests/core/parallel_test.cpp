// parallelFor over its reused threads: every index once, whatever the thread count; calls from
// many threads at once and from inside a range all finish; a range's exception reaches its
// caller and the threads stay usable; and every range runs at the same time as the others (each
// on a thread of its own), so ranges that wait for each other finish. Without PCV_THREADS the
// thread count is the CPUs the process may run on (its affinity), not the machine's.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <sched.h>

#include "pcv/core/parallel.hpp"

namespace pcv::test {
namespace {

class ThreadsOverride {
 public:
  explicit ThreadsOverride(unsigned threads) {
    setenv("PCV_THREADS", std::to_string(threads).c_str(), 1);
  }
  ~ThreadsOverride() { unsetenv("PCV_THREADS"); }
};

TEST(ParallelFor, ThreadsFollowTheCpusTheProcessMayRunOn) {
  const char* given = std::getenv("PCV_THREADS");
  const std::string saved = given ? given : "";
  unsetenv("PCV_THREADS");
  EXPECT_GE(usableCores(), 1u);
  EXPECT_LE(usableCores(), std::max(1u, std::thread::hardware_concurrency()));
  EXPECT_EQ(workerCount(), usableCores());
  // A thread bound to one CPU (as mpirun binds a rank, or taskset a process) sees one.
  cpu_set_t allowed;
  ASSERT_EQ(sched_getaffinity(0, sizeof(allowed), &allowed), 0);
  int first = 0;
  while (!CPU_ISSET(first, &allowed)) ++first;
  unsigned bound = 0, workers = 0;
  std::thread([&] {
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(first, &one);
    ASSERT_EQ(sched_setaffinity(0, sizeof(one), &one), 0);
    bound = usableCores();
    workers = workerCount();
  }).join();
  EXPECT_EQ(bound, 1u);
  EXPECT_EQ(workers, 1u);
  if (given) setenv("PCV_THREADS", saved.c_str(), 1);
}

TEST(ParallelFor, CoversEveryIndexOnce) {
  for (const unsigned threads : {1u, 3u, 16u}) {
    ThreadsOverride override(threads);
    for (const uint64_t count : {uint64_t(1), uint64_t(7), uint64_t(1000), uint64_t(1) << 20}) {
      std::vector<std::atomic<uint32_t>> seen(count);
      for (int call = 0; call < 3; ++call) {
        parallelFor(
            count,
            [&](uint64_t begin, uint64_t end) {
              for (uint64_t i = begin; i < end; ++i) seen[i].fetch_add(1);
            },
            1);
      }
      uint64_t wrong = 0;
      for (const auto& s : seen) wrong += s.load() != 3;
      EXPECT_EQ(wrong, 0u) << count << " indices on " << threads << " threads";
    }
  }
}

TEST(ParallelFor, CallsFromManyThreadsAndFromInsideARangeFinish) {
  ThreadsOverride override(6);
  std::atomic<uint64_t> total{0};
  std::vector<std::thread> callers;
  for (int c = 0; c < 8; ++c) {
    callers.emplace_back([&] {
      for (int call = 0; call < 50; ++call) {
        parallelFor(
            12,
            [&](uint64_t begin, uint64_t end) {
              for (uint64_t i = begin; i < end; ++i) {
                parallelFor(
                    10, [&](uint64_t b, uint64_t e) { total.fetch_add(e - b); }, 1);
              }
            },
            1);
      }
    });
  }
  for (std::thread& caller : callers) caller.join();
  EXPECT_EQ(total.load(), uint64_t(8 * 50 * 12 * 10));
}

TEST(ParallelFor, ARangesExceptionReachesTheCallerAndTheThreadsStayUsable) {
  ThreadsOverride override(4);
  for (int round = 0; round < 20; ++round) {
    EXPECT_THROW(parallelFor(
                     4,
                     [&](uint64_t begin, uint64_t) {
                       if (begin == uint64_t(round % 4)) throw std::runtime_error("range failed");
                     },
                     1),
                 std::runtime_error);
  }
  std::atomic<uint64_t> sum{0};
  parallelFor(
      1000, [&](uint64_t begin, uint64_t end) { sum.fetch_add(end - begin); }, 1);
  EXPECT_EQ(sum.load(), 1000u);
}

TEST(ParallelFor, RangesRunAtTheSameTime) {
  // Each range waits until every range has started: only ranges on threads of their own, all
  // running at once, get past it (a deadline keeps a failure from hanging the test).
  constexpr unsigned kRanges = 8;
  ThreadsOverride override(kRanges);
  for (int call = 0; call < 20; ++call) {
    std::atomic<unsigned> arrived{0};
    std::atomic<unsigned> timedOut{0};
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    parallelFor(
        kRanges,
        [&](uint64_t, uint64_t) {
          arrived.fetch_add(1);
          while (arrived.load() < kRanges) {
            if (std::chrono::steady_clock::now() > deadline) {
              timedOut.fetch_add(1);
              return;
            }
            std::this_thread::yield();
          }
        },
        1);
    ASSERT_EQ(timedOut.load(), 0u) << "call " << call << ": ranges waited for ranges not running";
  }
}

}  // namespace
}  // namespace pcv::test
