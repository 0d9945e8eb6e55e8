// Builds without CUDA: nothing is pinned; image buffers are ordinary memory.
#include "pinned_host_memory.hpp"

namespace pcv {

void* allocatePinnedHost(size_t) noexcept {
  return nullptr;
}

void freePinnedHost(void*) noexcept {}

}  // namespace pcv
