/// @brief The CPU twin of the CUDA quality pipeline (src/raster/cuda/quality_pipeline.hpp):
/// footprints, hole filling, high-quality blending, eye-dome lighting and gradient background,
/// from the compact layout, with the same per-point and per-pixel code, bit for bit.
#pragma once

#include <cstdint>
#include <vector>

#include "cpu_atomics.hpp"
#include "cpu_methods.hpp"
#include "pcv/raster/quality_settings.hpp"
#include "point_layout.hpp"

namespace pcv::cpu {

/// Buffers the pipeline keeps between frames besides Frame::words.
struct QualityScratch {
  std::vector<uint64_t> filled;        ///< framebuffer after hole filling
  std::vector<uint32_t> accumulators;  ///< kAccumulatorsPerPixel per pixel
};

void renderQuality(const Frame& frame, const HostPointPool& pool, const QualitySettings& quality,
                   QualityScratch& scratch);

/// The pipeline's depth pass: clear, each footprint pixel's closest point, hole filling. Returns
/// the words the shading reads (frame.words, or scratch.filled after hole filling).
const uint64_t* drawQualityWords(const Frame& frame, const HostPointPool& pool,
                                 const QualitySettings& quality, QualityScratch& scratch,
                                 WallStageClock& clock);

}  // namespace pcv::cpu
