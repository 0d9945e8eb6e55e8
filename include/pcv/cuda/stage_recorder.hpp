/// @brief Launches a frame's kernels by stage name and times each stage with CUDA events, so the
/// benchmark and the GUI read the same per-stage numbers. Skips empty launches; in debug builds
/// synchronizes after each launch so an asynchronous fault is blamed on the right kernel.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>
#include <vector>

#include "pcv/cuda/cuda_check.hpp"
#include "pcv/core/stage_timings.hpp"

namespace pcv {

/// Move-only cudaEvent_t.
class CudaEvent {
 public:
  CudaEvent() { CUDA_CHECK(cudaEventCreate(&event_)); }
  ~CudaEvent() {
    if (event_) CUDA_CHECK_PRINT(cudaEventDestroy(event_));
  }
  CudaEvent(CudaEvent&& other) noexcept : event_(other.event_) { other.event_ = nullptr; }
  CudaEvent& operator=(CudaEvent&&) = delete;
  CudaEvent(const CudaEvent&) = delete;
  cudaEvent_t get() const { return event_; }

 private:
  cudaEvent_t event_ = nullptr;
};

class StageRecorder {
 public:
  /// Per-stage events (the default) or one pair of events around the whole frame: events between
  /// kernels cost the GPU a few microseconds each, which matters for frames of tens of them.
  void setPerStage(bool perStage) { perStage_ = perStage; }
  /// Starts a frame on `stream`: forgets the last frame's stages.
  void beginFrame(cudaStream_t stream);
  /// Ends the stage that began at the previous mark; call after its launches.
  void endStage(const char* stage);
  /// Ends the frame; with per-stage events off, its time is reported as one stage, "frame".
  void endFrame();
#if defined(__CUDACC__)
  /// Launches kernel<<<ceil(threads / blockSize), blockSize>>>(params) as stage `stage`.
  template <typename Params>
  void launch(const char* stage, uint64_t threads, void (*kernel)(Params), const Params& params,
              int blockSize = 256) {
    if (threads > 0) {
      const uint64_t blocks = (threads + blockSize - 1) / blockSize;
      kernel<<<unsigned(blocks), blockSize, 0, stream_>>>(params);
      checkLaunch(stage);
    }
    endStage(stage);
  }
  /// Launches kernel<<<ceil(threads / blockSize), blockSize>>>(params) as part of the stage
  /// the next endStage() ends (stages of several launches, one per point range).
  template <typename Params>
  void launchPart(const char* stage, uint64_t threads, void (*kernel)(Params), const Params& params,
                  int blockSize = 256) {
    if (threads == 0) return;
    const uint64_t blocks = (threads + blockSize - 1) / blockSize;
    kernel<<<unsigned(blocks), blockSize, 0, stream_>>>(params);
    checkLaunch(stage);
  }
  /// As launch(), but the kernel may begin launching before the previous one ends (see
  /// pcv/cuda/dependent_launch.cuh); the kernel must call beginDependentKernel() first.
  template <typename Params>
  void launchDependent(const char* stage, uint64_t threads, void (*kernel)(Params),
                       const Params& params, int blockSize = 256) {
    if (threads > 0) {
      cudaLaunchConfig_t config{};
      config.gridDim = dim3(unsigned((threads + blockSize - 1) / blockSize));
      config.blockDim = dim3(unsigned(blockSize));
      config.stream = stream_;
      cudaLaunchAttribute attribute{};
      attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
      attribute.val.programmaticStreamSerializationAllowed = 1;
      config.attrs = &attribute;
      config.numAttrs = dependentLaunches_ ? 1 : 0;
      CUDA_CHECK(cudaLaunchKernelEx(&config, kernel, params));
      checkLaunch(stage);
    }
    endStage(stage);
  }
#endif
  /// Whether launchDependent may overlap kernels (default on).
  void setDependentLaunches(bool enabled) {
    dependentLaunches_ = enabled;
  }
  /// Per-stage GPU times of the frame; waits for the frame's last event.
  StageTimings timings();
  cudaStream_t stream() const {
    return stream_;
  }

 private:
  void checkLaunch(const char* stage);
  void record(const char* stage);

  cudaStream_t stream_ = nullptr;
  bool perStage_ = true;
  bool dependentLaunches_ = true;
  std::vector<CudaEvent> events_;    // events_[0] marks the frame's start
  std::vector<std::string> stages_;  // stages_[i] ends at events_[i + 1]
};

}  // namespace pcv
