/// @brief Reorders an image's rows top row first (the order of image files and NumPy arrays) on
/// the GPU, where it costs one pass at device bandwidth, so that a host readback is one copy
/// straight into the caller's memory instead of a copy and a flip on the CPU.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace pcv::cuda {

struct FlipRowsParams {
  const uint32_t* from;  ///< device memory: width * height RGBA8, row 0 at the bottom
  uint32_t* to;          ///< device memory: the same rows, top row first; must not overlap from
  uint32_t width;        ///< pixels per row
  uint32_t height;       ///< rows
};

/// One thread per pixel; consecutive threads read and write consecutive pixels of a row.
__device__ inline void flipRows(const FlipRowsParams& p) {
  const uint64_t pixel = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
  if (pixel >= uint64_t(p.width) * p.height) return;
  const uint64_t row = pixel / p.width, column = pixel % p.width;
  p.to[(uint64_t(p.height) - 1 - row) * p.width + column] = p.from[pixel];
}

__global__ void flipRowsKernel(FlipRowsParams p);

}  // namespace pcv::cuda
