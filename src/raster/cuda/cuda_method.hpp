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
#include "pcv/raster/projection.hpp"
#include "pcv/raster/render_settings.hpp"
#include "point_layout.cuh"
#include "resolve.cuh"

namespace pcv::cuda {

/// Everything one frame needs; pointers are device memory owned by the backend.
struct FrameContext {
  const Point* points;  ///< the backend's points, pointCount of them (null: compact only)
  const CompactPointsDevice* compact;  ///< the compact layout (empty without Morton order)
  uint64_t pointCount;                 ///< count of points, not bytes
  ViewTransform view;
  const RenderSettings* settings;
  PixelSink out;                        ///< view.width * view.height output pixels
  DeviceBuffer<uint64_t>* framebuffer;  ///< scratch, at least one word per pixel
  StageRecorder* recorder;              ///< launches and times the stages on the frame's stream
};

class CudaMethod {
 public:
  virtual ~CudaMethod() = default;
  virtual const char* name() const = 0;
  /// Launches the frame's stages; no host synchronization.
  virtual void render(const FrameContext& frame) = 0;
  /// Bytes the raster pass(es) read per point.
  virtual double bytesReadPerPoint() const { return sizeof(Point); }
};

std::unique_ptr<CudaMethod> createCompactMethod();
std::unique_ptr<CudaMethod> createPackedMethod();
std::unique_ptr<CudaMethod> createEarlyZMethod();
std::unique_ptr<CudaMethod> createSeedMethod();

}  // namespace pcv::cuda
