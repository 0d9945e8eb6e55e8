/// @brief Copies between pageable host memory and the GPU through a few pinned buffers: all cores
/// fill (or empty) one buffer while the copy engine moves another. cudaMemcpy from pageable memory
/// stages through the driver's own pinned memory on the calling thread alone, and takes every
/// first-touch fault of fresh host pages on that thread too: for gigabytes, several times slower
/// than the link.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "pcv/cuda/stage_recorder.hpp"

namespace pcv {

/// Move-only cudaMallocHost'd (pinned) host memory.
class PinnedHostBuffer {
 public:
  explicit PinnedHostBuffer(size_t bytes);
  ~PinnedHostBuffer();
  PinnedHostBuffer(PinnedHostBuffer&& other) noexcept;
  PinnedHostBuffer& operator=(PinnedHostBuffer&&) = delete;
  PinnedHostBuffer(const PinnedHostBuffer&) = delete;
  uint8_t* data() const { return data_; }

 private:
  uint8_t* data_ = nullptr;
};

/// Move-only cudaStream_t; a blocking stream, so that its work follows the legacy default
/// stream's.
class CudaStream {
 public:
  CudaStream();
  ~CudaStream();
  CudaStream(const CudaStream&) = delete;
  CudaStream& operator=(const CudaStream&) = delete;
  cudaStream_t get() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

class StagedCopier {
 public:
  /// `slots` pinned buffers of `slotBytes` each.
  explicit StagedCopier(size_t slotBytes = size_t(32) << 20, int slots = 3);

  /// Copies `bytes` from host memory into device memory (GPU pointer owned by the caller), after
  /// the work queued on the legacy default stream; returns when the copy is done.
  void toDevice(void* device, const void* host, size_t bytes);
  /// Copies `bytes` of device memory (GPU pointer owned by the caller) into host memory, after the
  /// work queued on the legacy default stream; returns when the copy is done.
  void toHost(void* host, const void* device, size_t bytes);

 private:
  struct Slot {
    PinnedHostBuffer pinned;
    CudaEvent moved;  ///< recorded after the slot's last copy to or from the GPU
  };
  size_t slotBytes_;
  CudaStream stream_;
  std::vector<Slot> slots_;
};

}  // namespace pcv
