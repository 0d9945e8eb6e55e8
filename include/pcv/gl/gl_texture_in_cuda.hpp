/// @brief A GL 2D texture registered with CUDA for surface writes: mapped for a frame, CUDA
/// writes its pixels through a cudaSurfaceObject_t, so no PBO-to-texture copy is needed.
#pragma once

#include <epoxy/gl.h>  // before cuda_gl_interop.h
// clang-format off
#include <cuda_gl_interop.h>
// clang-format on

namespace pcv {

class GlTextureInCuda {
 public:
  /// Registers `texture` (GL_TEXTURE_2D, a format CUDA can store to, e.g. GL_RGBA8) with
  /// cudaGraphicsRegisterFlagsSurfaceLoadStore. Throws CudaError when CUDA refuses.
  explicit GlTextureInCuda(GLuint texture);
  /// Unmaps if mapped, destroys the surface object, unregisters; logs, never throws.
  ~GlTextureInCuda();
  GlTextureInCuda(GlTextureInCuda&& other) noexcept;
  GlTextureInCuda& operator=(GlTextureInCuda&& other) noexcept;
  GlTextureInCuda(const GlTextureInCuda&) = delete;
  GlTextureInCuda& operator=(const GlTextureInCuda&) = delete;

  /// Maps on `stream` and returns a surface object over level 0. The object is kept while the
  /// mapped array stays the same, so a frame costs no surface creation.
  cudaSurfaceObject_t map(cudaStream_t stream);
  void unmap(cudaStream_t stream);
  bool mapped() const { return mapped_; }

 private:
  void release() noexcept;

  cudaGraphicsResource_t resource_ = nullptr;
  cudaStream_t mappedStream_ = nullptr;
  bool mapped_ = false;
  cudaArray_t array_ = nullptr;
  cudaSurfaceObject_t surface_ = 0;
};

}  // namespace pcv
