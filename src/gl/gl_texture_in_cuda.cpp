#include "pcv/gl/gl_texture_in_cuda.hpp"

#include <utility>

#include "pcv/cuda/cuda_check.hpp"

namespace pcv {

GlTextureInCuda::GlTextureInCuda(GLuint texture) {
  // WriteDiscard: every frame overwrites every pixel, so CUDA need not keep GL's contents.
  CUDA_CHECK(cudaGraphicsGLRegisterImage(
      &resource_, texture, GL_TEXTURE_2D,
      cudaGraphicsRegisterFlagsSurfaceLoadStore | cudaGraphicsRegisterFlagsWriteDiscard));
}

GlTextureInCuda::~GlTextureInCuda() {
  release();
}

GlTextureInCuda::GlTextureInCuda(GlTextureInCuda&& other) noexcept
    : resource_(std::exchange(other.resource_, nullptr)),
      mappedStream_(other.mappedStream_),
      mapped_(std::exchange(other.mapped_, false)),
      array_(std::exchange(other.array_, nullptr)),
      surface_(std::exchange(other.surface_, 0)) {}

GlTextureInCuda& GlTextureInCuda::operator=(GlTextureInCuda&& other) noexcept {
  if (this != &other) {
    release();
    resource_ = std::exchange(other.resource_, nullptr);
    mappedStream_ = other.mappedStream_;
    mapped_ = std::exchange(other.mapped_, false);
    array_ = std::exchange(other.array_, nullptr);
    surface_ = std::exchange(other.surface_, 0);
  }
  return *this;
}

cudaSurfaceObject_t GlTextureInCuda::map(cudaStream_t stream) {
  if (mapped_) throw Error("GlTextureInCuda::map: the texture is already mapped");
  CUDA_CHECK(cudaGraphicsMapResources(1, &resource_, stream));
  mapped_ = true;
  mappedStream_ = stream;
  cudaArray_t array = nullptr;
  CUDA_CHECK(cudaGraphicsSubResourceGetMappedArray(&array, resource_, 0, 0));
  if (array != array_ || surface_ == 0) {
    if (surface_) CUDA_CHECK(cudaDestroySurfaceObject(surface_));
    surface_ = 0;
    cudaResourceDesc description{};
    description.resType = cudaResourceTypeArray;
    description.res.array.array = array;
    CUDA_CHECK(cudaCreateSurfaceObject(&surface_, &description));
    array_ = array;
  }
  return surface_;
}

void GlTextureInCuda::unmap(cudaStream_t stream) {
  if (!mapped_) return;
  mapped_ = false;
  CUDA_CHECK(cudaGraphicsUnmapResources(1, &resource_, stream));
}

void GlTextureInCuda::release() noexcept {
  if (!resource_) return;
  if (mapped_) CUDA_CHECK_PRINT(cudaGraphicsUnmapResources(1, &resource_, mappedStream_));
  // Work still queued may write through the surface: let it finish before the object goes.
  if (mappedStream_) CUDA_CHECK_PRINT(cudaStreamSynchronize(mappedStream_));
  if (surface_) CUDA_CHECK_PRINT(cudaDestroySurfaceObject(surface_));
  CUDA_CHECK_PRINT(cudaGraphicsUnregisterResource(resource_));
  resource_ = nullptr;
  surface_ = 0;
  array_ = nullptr;
  mapped_ = false;
}

}  // namespace pcv
