// Large output arrays of the loaders (UninitializedVector): anonymous mappings with transparent
// huge pages advised, so the threads that first touch them fault 2 MiB at a time instead of
// 4 KiB (512 times fewer faults for the kernel to serialise on the address space).
#include <sys/mman.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <new>

#include "pcv/core/uninitialized_vector.hpp"

namespace pcv::detail {

void* mapLargeBlock(size_t bytes) {
  void* block = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (block == MAP_FAILED) throw std::bad_alloc();
  // Advice only: kernels without THP (or with it off) keep 4 KiB pages, which is still correct.
  ::madvise(block, bytes, MADV_HUGEPAGE);
  return block;
}

void unmapLargeBlock(void* block, size_t bytes) noexcept {
  if (block && ::munmap(block, bytes) != 0) {
    std::fprintf(stderr, "pcv: munmap of a %zu-byte block failed: %s\n", bytes,
                 std::strerror(errno));
  }
}

}  // namespace pcv::detail
