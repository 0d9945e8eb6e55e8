#include "pinned_host_memory.hpp"

#include <cuda_runtime_api.h>

#include "pcv/cuda/cuda_check.hpp"

namespace pcv {

void* allocatePinnedHost(size_t bytes) noexcept {
  void* block = nullptr;
  if (cudaMallocHost(&block, bytes) != cudaSuccess) {
    cudaGetLastError();  // clear the status so the next CUDA call starts clean
    return nullptr;
  }
  return block;
}

void freePinnedHost(void* block) noexcept {
  if (block) CUDA_CHECK_PRINT(cudaFreeHost(block));
}

}  // namespace pcv
