/// @brief The per-point kernels of the quality pipeline: footprints into the 64-bit framebuffer
/// (the depth pass), and the high-quality pass that adds up the colours of the points near each
/// pixel's closest depth with integer atomics (exact, order-independent: the CPU's bits).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "shared/clip_region.hpp"
#include "shared/compact_points.hpp"
#include "shared/point_filter_frame.hpp"
#include "pcv/raster/projection.hpp"
#include "shared/splat.hpp"

namespace pcv::cuda {

/// Threads per block of the per-batch kernels; one block per batch.
constexpr int kSplatBlock = 256;

struct SplatRasterParams {
  const uint32_t* positions;  ///< quantized words (compact layout), device memory
  const Batch* batches;       ///< the pool's batch slots
  const uint32_t* drawn;      ///< block b draws slot drawn[b], or slot b when null
  ViewTransform view;         ///< the frame's view
  SplatFrame splat;           ///< footprint sizes and shape
  ClipFrame clip;             ///< the frame's clip region (clip.active == 0: none)
  FilterFrame filter;         ///< the frame's point filter (filter.active == 0: none)
  FilterArrays filterArrays;  ///< the pool's filter data (device memory)
  unsigned long long* words;  ///< framebuffer, kEmptyPixel where no point is yet
};

struct SplatAccumulateParams {
  const uint32_t* positions;  ///< quantized words (compact layout), device memory
  const uint32_t* colors;     ///< RGBA8 per point
  const Batch* batches;       ///< the pool's batch slots
  const uint32_t* drawn;      ///< block b draws slot drawn[b], or slot b when null
  ViewTransform view;         ///< the frame's view
  SplatFrame splat;           ///< footprint sizes and shape, as in the depth pass
  ClipFrame clip;             ///< the clip region, as in the depth pass
  FilterFrame filter;         ///< the point filter, as in the depth pass
  FilterArrays filterArrays;  ///< the pool's filter data (device memory)
  const uint64_t* words;      ///< the closest word per pixel (after hole filling)
  float depthScale;           ///< 1 + relative depth range that blends
  uint32_t* accumulators;     ///< kAccumulatorsPerPixel per pixel, zeroed before
};

/// __grid_constant__: the clip polygon's edges are read by index from the parameters.
__global__ void splatRasterKernel(const __grid_constant__ SplatRasterParams p);
__global__ void splatAccumulateKernel(const __grid_constant__ SplatAccumulateParams p);

}  // namespace pcv::cuda
