/// @brief Shared stages of the 64-bit-word methods: clear the framebuffer, resolve words into
/// colours (the visibility buffer's colour fetch: one read per pixel, not per point).
#pragma once

#include <cstdint>

#include "pcv/core/point.hpp"
#include "pcv/raster/framebuffer_word.hpp"

namespace pcv::cuda {

struct ClearWordsParams {
  uint64_t* words;  ///< device memory
  uint64_t count;   ///< words to set to kEmptyPixel
};

struct ResolveParams {
  const uint64_t* words;   ///< framebuffer, payload = point index
  const Point* points;     ///< colours are read from here
  uint32_t* rgba;          ///< output, one per pixel
  uint64_t pixelCount;
  uint32_t background;     ///< packed RGBA8 for empty pixels
};

__device__ inline void clearWords(const ClearWordsParams& p) {
  const uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
  if (i < p.count) p.words[i] = kEmptyPixel;
}

__device__ inline void resolveIndexWords(const ResolveParams& p) {
  const uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
  if (i >= p.pixelCount) return;
  const uint64_t word = p.words[i];
  p.rgba[i] = word == kEmptyPixel ? p.background : p.points[payloadOfWord(word)].rgba;
}

__global__ void clearWordsKernel(ClearWordsParams p);
__global__ void resolveIndexWordsKernel(ResolveParams p);

}  // namespace pcv::cuda
