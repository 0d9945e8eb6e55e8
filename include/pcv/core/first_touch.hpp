/// @brief Faults in fresh memory on all cores. A buffer that only a single-threaded copy will
/// fill (cudaMemcpy into pageable memory stages through the driver on one thread) would otherwise
/// take every first-touch page fault, and the kernel's zeroing of each page, on that one thread.
#pragma once

#include <cstddef>

namespace pcv {

/// Writes a zero byte into every page of [data, data + bytes), in parallel. For memory whose
/// contents are about to be overwritten: what was there is lost.
void firstTouchInParallel(void* data, size_t bytes);

}  // namespace pcv
