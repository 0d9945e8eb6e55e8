/// @brief The seed's OpenglBufferInCuda as a move-only RAII type: a GL buffer registered with
/// CUDA, mapped for a frame on a stream, seen by kernels as a typed device array. Mapped only
/// between map() and unmap(): GL must not touch it while CUDA holds it.
#pragma once

#include <epoxy/gl.h>  // before cuda_gl_interop.h, which includes GL headers of its own
// clang-format off
#include <cuda_gl_interop.h>
// clang-format on

#include <cstddef>
#include <string>

#include "pcv/core/error.hpp"

namespace pcv {

/// A typed view of device memory: data is a GPU pointer owned by someone else; count is
/// elements, not bytes.
template <typename T>
struct DeviceView {
  T* data = nullptr;
  size_t count = 0;
  size_t bytes() const { return count * sizeof(T); }
};

class GlBufferInCuda {
 public:
  /// Registers `buffer` (a GL buffer name, in the current context) with CUDA. Throws CudaError
  /// when CUDA refuses (e.g. the CUDA device does not run this GL context).
  explicit GlBufferInCuda(GLuint buffer, unsigned registerFlags = cudaGraphicsRegisterFlagsNone);
  /// Unmaps if still mapped, then unregisters; logs, never throws.
  ~GlBufferInCuda();
  GlBufferInCuda(GlBufferInCuda&& other) noexcept;
  GlBufferInCuda& operator=(GlBufferInCuda&& other) noexcept;
  GlBufferInCuda(const GlBufferInCuda&) = delete;
  GlBufferInCuda& operator=(const GlBufferInCuda&) = delete;

  /// Maps for CUDA, ordered on `stream` after GL's earlier work on the buffer.
  void map(cudaStream_t stream);
  /// Hands the buffer back to GL, ordered after `stream`'s work so far.
  void unmap(cudaStream_t stream);
  bool mapped() const { return mapped_; }
  /// Bytes CUDA sees while mapped (0 when not mapped).
  size_t mappedBytes() const { return mappedBytes_; }

  /// All of the mapped buffer as T (rounded down to whole elements).
  template <typename T>
  DeviceView<T> view() const {
    requireMapped();
    return {static_cast<T*>(mappedPointer_), mappedBytes_ / sizeof(T)};
  }
  /// The first `count` elements; throws InputError, naming the sizes, when they exceed the
  /// mapped bytes.
  template <typename T>
  DeviceView<T> view(size_t count) const {
    requireMapped();
    if (count > mappedBytes_ / sizeof(T)) {
      throw InputError("view of " + std::to_string(count) + " elements of " +
                       std::to_string(sizeof(T)) + " bytes exceeds the mapped GL buffer of " +
                       std::to_string(mappedBytes_) + " bytes");
    }
    return {static_cast<T*>(mappedPointer_), count};
  }

 private:
  void requireMapped() const;
  void release() noexcept;

  cudaGraphicsResource_t resource_ = nullptr;
  cudaStream_t mappedStream_ = nullptr;  // for the destructor's unmap
  bool mapped_ = false;
  void* mappedPointer_ = nullptr;
  size_t mappedBytes_ = 0;
};

}  // namespace pcv
