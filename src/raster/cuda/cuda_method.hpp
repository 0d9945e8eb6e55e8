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
#include "resolve.cuh"

namespace pcv::cuda {

/// Everything one frame needs; pointers are device memory owned by the backend.
struct FrameContext {
  const Point* points;        ///< the backend's points, pointCount of them
  uint64_t pointCount;        ///< count of points, not bytes
  ViewTransform view;
  const RenderSettings* settings;
  PixelSink out;              ///< view.width * view.height output pixels
  DeviceBuffer<uint64_t>* framebuffer;  ///< scratch, at least one word per pixel
  StageRecorder* recorder;    ///< launches and times the stages on the frame's stream
};

class CudaMethod {
 public:
  virtual ~CudaMethod() = default;
  virtual const char* name() const = 0;
  /// Called after the points change (upload, generation), e.g. to build a derived layout.
  virtual void pointsChanged(const Point* points, uint64_t pointCount, cudaStream_t stream) {
    (void)points, (void)pointCount, (void)stream;
  }
  /// Launches the frame's stages; no host synchronization.
  virtual void render(const FrameContext& frame) = 0;
  /// Device bytes of the method's own copy of the points (0 when it reads the backend's).
  virtual uint64_t residentBytes() const { return 0; }
  /// Bytes the raster pass(es) read per point.
  virtual double bytesReadPerPoint() const { return sizeof(Point); }
  /// True when the method reads the backend's 16-byte points (not only its own layout).
  virtual bool readsBackendPoints() const { return true; }
};

std::unique_ptr<CudaMethod> createCompactMethod();
std::unique_ptr<CudaMethod> createPackedMethod();
std::unique_ptr<CudaMethod> createEarlyZMethod();
std::unique_ptr<CudaMethod> createSeedMethod();

}  // namespace pcv::cuda
