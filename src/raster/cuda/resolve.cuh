/// @brief Shared stages of the 64-bit-word methods: clear the framebuffer, resolve words into
/// colours (the visibility buffer's colour fetch: one read per pixel, not per point).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "pcv/core/point.hpp"
#include "shared/framebuffer_word.hpp"

namespace pcv::cuda {

struct ClearWordsParams {
  uint64_t* words;  ///< device memory
  uint64_t count;   ///< words to set to kEmptyPixel
};

/// Where a frame's pixels go: a linear RGBA8 array in device memory, or a surface over a
/// texture's array. Passed by value into kernels.
struct PixelSink {
  uint32_t* rgba;               ///< linear pixels when not null
  cudaSurfaceObject_t surface;  ///< used when rgba is null
  int width;                    ///< pixels per row

  __device__ void store(uint64_t pixel, uint32_t value) const {
    if (rgba) {
      rgba[pixel] = value;
    } else {
      surf2Dwrite(value, surface, int(pixel % width) * int(sizeof(uint32_t)), int(pixel / width));
    }
  }
};

struct ResolveParams {
  const uint64_t* words;  ///< framebuffer, payload = point index
  const Point* points;    ///< colours are read from here
  PixelSink out;          ///< one pixel per framebuffer word
  uint64_t pixelCount;
  uint32_t background;  ///< packed RGBA8 for empty pixels
};

__device__ inline void clearWords(const ClearWordsParams& p) {
  const uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
  if (i < p.count) p.words[i] = kEmptyPixel;
}

__device__ inline void resolveIndexWords(const ResolveParams& p) {
  const uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
  if (i >= p.pixelCount) return;
  const uint64_t word = p.words[i];
  p.out.store(i, word == kEmptyPixel ? p.background : p.points[payloadOfWord(word)].rgba);
}

__global__ void clearWordsKernel(ClearWordsParams p);
__global__ void resolveIndexWordsKernel(ResolveParams p);

}  // namespace pcv::cuda
