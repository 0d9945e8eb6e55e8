/// @brief One way of rasterizing on the GPU. The cuda backend holds several so they can be
/// compared side by side; each method keeps whatever extra layout of the points it needs.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "pcv/core/point.hpp"
#include "pcv/cuda/device_buffer.hpp"
#include "pcv/cuda/stage_recorder.hpp"
#include "../raster_backend.hpp"
#include "pcv/raster/projection.hpp"
#include "pcv/raster/render_settings.hpp"
#include "point_layout.cuh"
#include "resolve.cuh"

namespace pcv::cuda {

/// Everything one frame needs; pointers are device memory owned by the backend.
struct FrameContext {
  const DevicePointPool* pool;  ///< every set's points and batches
  /// The batch slots to draw (device memory), or null to draw slots [0, batchCount).
  const uint32_t* drawnBatches;
  uint32_t batchCount;                  ///< batches drawn (count of batches)
  std::vector<PointRange> pointRanges;  ///< point slots drawn by the 16-byte methods
  ViewTransform view;
  const RenderSettings* settings;
  ClipFrame clip;                       ///< settings->clip in the points' coordinates
  FilterFrame filter;                   ///< settings->filter for the kernels
  /// Names `filter` among the filters drawn so far (0 with none): the pool's pass bits stamped
  /// with it hold this filter's verdicts.
  uint32_t filterGeneration;
  PixelSink out;                        ///< view.width * view.height output pixels
  DeviceBuffer<uint64_t>* framebuffer;  ///< scratch, at least one word per pixel
  StageRecorder* recorder;              ///< launches and times the stages on the frame's stream
};

/// The i-th batch slot a frame draws.
__host__ __device__ inline uint32_t drawnBatchSlot(const uint32_t* drawnBatches, uint32_t i) {
  return drawnBatches ? drawnBatches[i] : i;
}

class CudaMethod {
 public:
  virtual ~CudaMethod() = default;
  virtual const char* name() const = 0;
  /// Launches the frame's stages; no host synchronization.
  virtual void render(const FrameContext& frame) = 0;
};

std::unique_ptr<CudaMethod> createCompactMethod();
std::unique_ptr<CudaMethod> createPackedMethod();
std::unique_ptr<CudaMethod> createEarlyZMethod();
std::unique_ptr<CudaMethod> createSeedMethod();

}  // namespace pcv::cuda
