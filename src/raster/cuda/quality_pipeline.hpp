/// @brief The quality pipeline on the GPU: what the backend runs instead of a method when any
/// quality setting is on (point size, hole filling, eye-dome lighting, high-quality blending,
/// gradient background). Draws from the compact layout; src/raster/cpu/quality_pipeline.hpp is
/// its bit-exact twin.
#pragma once

#include "compact_raster.cuh"
#include "cuda_method.hpp"
#include "pcv/raster/quality_settings.hpp"

namespace pcv::cuda {

class QualityPipeline {
 public:
  /// Launches the frame's stages on the recorder's stream; no host synchronization.
  void render(const FrameContext& frame, const QualitySettings& quality);
  /// Launches only the depth pass (clear, splat or the one-pixel stages, hole filling) and
  /// returns the device words the shading would read; no host synchronization.
  const uint64_t* drawWords(const FrameContext& frame, const QualitySettings& quality);

 private:
  CompactRasterStages onePixelStages_;   // the depth pass when points are one pixel wide
  DeviceBuffer<uint64_t> words_;         // the depth pass's framebuffer
  DeviceBuffer<uint64_t> filled_;        // after hole filling
  DeviceBuffer<uint32_t> accumulators_;  // kAccumulatorsPerPixel per pixel
};

}  // namespace pcv::cuda
