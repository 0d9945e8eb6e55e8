// One byte per 4 KiB is enough: the fault maps (and zeroes) the whole page, 2 MiB at a time
// where transparent huge pages back the block.
#include "pcv/core/first_touch.hpp"

#include <cstdint>

#include "pcv/core/parallel.hpp"

namespace pcv {

void firstTouchInParallel(void* data, size_t bytes) {
  constexpr size_t kPageBytes = 4096;
  volatile uint8_t* const first = static_cast<uint8_t*>(data);
  const size_t pages = (bytes + kPageBytes - 1) / kPageBytes;
  // 256 pages (1 MiB) at least per thread: fewer would cost more to start than they save.
  parallelFor(
      pages,
      [&](uint64_t begin, uint64_t end) {
        for (uint64_t page = begin; page < end; ++page) first[page * kPageBytes] = 0;
      },
      256);
}

}  // namespace pcv
