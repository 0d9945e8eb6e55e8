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
/// texture's array. Passed by value into kernels. With topRowFirst a linear array receives its
/// rows in the order of image files and NumPy arrays (framebuffer row 0, the bottom, goes last):
/// the resolve writes each pixel to its place, so a host readback is one copy straight into the
/// caller's memory with no pass of its own to reorder the rows.
struct PixelSink {
  uint32_t* rgba;               ///< linear pixels when not null
  cudaSurfaceObject_t surface;  ///< used when rgba is null
  int width;                    ///< pixels per row
  int height = 0;               ///< rows (read with topRowFirst)
  bool topRowFirst = false;     ///< rgba's rows from the top (surfaces keep GL's bottom-up rows)

  /// Where framebuffer pixel `pixel` (row 0 at the bottom) goes in rgba.
  __device__ uint64_t placeOf(uint64_t pixel) const {
    if (!topRowFirst) return pixel;
    const uint64_t row = pixel / uint32_t(width), column = pixel % uint32_t(width);
    return (uint64_t(height) - 1 - row) * uint32_t(width) + column;
  }
  __device__ void store(uint64_t pixel, uint32_t value) const {
    if (rgba) {
      rgba[placeOf(pixel)] = value;
    } else {
      surf2Dwrite(value, surface, int(pixel % width) * int(sizeof(uint32_t)), int(pixel / width));
    }
  }
  /// Pixels 4 * quad .. 4 * quad + 3 in one 16-byte store where they stay together in rgba (a
  /// row order kept, or rows of a multiple of four pixels), else one by one.
  __device__ void storeQuad(uint64_t quad, const uint4& values) const {
    if (rgba && (!topRowFirst || width % 4 == 0)) {
      reinterpret_cast<uint4*>(rgba)[placeOf(4 * quad) / 4] = values;
    } else {
      store(4 * quad, values.x);
      store(4 * quad + 1, values.y);
      store(4 * quad + 2, values.z);
      store(4 * quad + 3, values.w);
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
