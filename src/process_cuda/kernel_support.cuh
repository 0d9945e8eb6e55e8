/// @brief What the ground and noise filters' kernels share: the launch shape and which points
/// take part.
#pragma once

#include <cstdint>

namespace pcv::process_cuda {

inline constexpr int kBlock = 256;

inline unsigned blocksFor(uint64_t count) { return unsigned((count + kBlock - 1) / kBlock); }

__device__ inline uint64_t threadIndex() {
  return blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
}

/// Whether point i (x, y, z at `point`) counts: finite, and not flagged in `excluded` (may be
/// null), as the CPU filters decide.
__device__ inline bool takesPart(const double* point, const uint8_t* excluded, uint64_t i) {
  return !(excluded && excluded[i]) && isfinite(point[0]) && isfinite(point[1]) &&
         isfinite(point[2]);
}

}  // namespace pcv::process_cuda
