#include "pcv/core/parallel.hpp"

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace pcv {

unsigned workerCount() {
  if (const char* text = std::getenv("PCV_THREADS")) {
    const int requested = std::atoi(text);
    if (requested > 0) return unsigned(requested);
  }
  return std::max(1u, std::thread::hardware_concurrency());
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
  std::exception_ptr firstError;
  std::mutex errorMutex;
  std::vector<std::thread> pool;
  pool.reserve(threads);
  for (unsigned t = 0; t < threads; ++t) {
    const uint64_t begin = count * t / threads;
    const uint64_t end = count * (t + 1) / threads;
    pool.emplace_back([&, begin, end] {
      try {
        body(begin, end);
      } catch (...) {
        std::lock_guard lock(errorMutex);
        if (!firstError) firstError = std::current_exception();
      }
    });
  }
  for (auto& thread : pool) thread.join();
  if (firstError) std::rethrow_exception(firstError);
}

}  // namespace pcv
