/// @brief What the LAZ kernels share: which decoding thread a launched thread is, the work
/// counter of the one-thread-per-chunk kernels, how many warps the device holds at once, and
/// how a thread reports a broken chunk.
#pragma once

#include <cstdint>

#include "laz_chunk_kernels.hpp"
#include "pcv/cuda/cuda_check.hpp"

namespace pcv::laz::cuda {

/// The decoding thread this launched thread is, or false when it has none (the spare lanes of
/// one-per-warp launches, the last block's tail).
__device__ inline bool decodingThread(const KernelParams& p, uint32_t count, uint32_t& index) {
  const uint32_t launched = blockIdx.x * blockDim.x + threadIdx.x;
  if (launched % p.spread != 0) return false;
  index = launched / p.spread;
  return index < count;
}

/// The next chunk in the largest-first order, or false when none is left.
__device__ inline bool takeChunk(const KernelParams& p, uint32_t& index) {
  const uint32_t n = atomicAdd(p.nextChunk, 1u);
  if (n >= p.chunkCount) return false;
  index = p.order[n];
  return true;
}

/// Blocks of `blockSize` for `count` decoding threads.
inline uint32_t blocksFor(const KernelParams& p, uint64_t count, uint32_t blockSize) {
  return uint32_t((count * p.spread + blockSize - 1) / blockSize);
}

/// Warps of `kernel` in blocks of `blockSize` the current device holds at once.
template <typename Kernel>
uint32_t residentWarpsOf(Kernel kernel, uint32_t blockSize) {
  int device = 0, multiprocessors = 0, blocks = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(
      cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, int(blockSize), 0));
  return uint32_t(blocks) * uint32_t(multiprocessors) * ((blockSize + 31) / 32);
}

/// Several second-pass threads may find faults in one chunk.
__host__ __device__ inline void markFaulty(uint32_t* flag) {
#if defined(__CUDA_ARCH__)
  atomicOr(flag, 1u);
#else
  *flag = 1;
#endif
}

__host__ __device__ inline void copyBytes(uint8_t* out, const uint8_t* in, uint32_t count) {
  for (uint32_t i = 0; i < count; ++i) out[i] = in[i];
}

}  // namespace pcv::laz::cuda
