#include "pcv/gl/gl_buffer_in_cuda.hpp"

#include <utility>

#include "pcv/cuda/cuda_check.hpp"

namespace pcv {

GlBufferInCuda::GlBufferInCuda(GLuint buffer, unsigned registerFlags) {
  CUDA_CHECK(cudaGraphicsGLRegisterBuffer(&resource_, buffer, registerFlags));
}

GlBufferInCuda::~GlBufferInCuda() {
  release();
}

GlBufferInCuda::GlBufferInCuda(GlBufferInCuda&& other) noexcept
    : resource_(std::exchange(other.resource_, nullptr)),
      mappedStream_(other.mappedStream_),
      mapped_(std::exchange(other.mapped_, false)),
      mappedPointer_(std::exchange(other.mappedPointer_, nullptr)),
      mappedBytes_(std::exchange(other.mappedBytes_, 0)) {}

GlBufferInCuda& GlBufferInCuda::operator=(GlBufferInCuda&& other) noexcept {
  if (this != &other) {
    release();
    resource_ = std::exchange(other.resource_, nullptr);
    mappedStream_ = other.mappedStream_;
    mapped_ = std::exchange(other.mapped_, false);
    mappedPointer_ = std::exchange(other.mappedPointer_, nullptr);
    mappedBytes_ = std::exchange(other.mappedBytes_, 0);
  }
  return *this;
}

void GlBufferInCuda::map(cudaStream_t stream) {
  if (mapped_) throw Error("GlBufferInCuda::map: the buffer is already mapped");
  CUDA_CHECK(cudaGraphicsMapResources(1, &resource_, stream));
  mapped_ = true;
  mappedStream_ = stream;
  CUDA_CHECK(cudaGraphicsResourceGetMappedPointer(&mappedPointer_, &mappedBytes_, resource_));
}

void GlBufferInCuda::unmap(cudaStream_t stream) {
  if (!mapped_) return;
  mapped_ = false;
  mappedPointer_ = nullptr;
  mappedBytes_ = 0;
  CUDA_CHECK(cudaGraphicsUnmapResources(1, &resource_, stream));
}

void GlBufferInCuda::requireMapped() const {
  if (!mapped_) throw Error("GlBufferInCuda: view() needs the buffer mapped (call map first)");
}

void GlBufferInCuda::release() noexcept {
  if (!resource_) return;
  if (mapped_) CUDA_CHECK_PRINT(cudaGraphicsUnmapResources(1, &resource_, mappedStream_));
  CUDA_CHECK_PRINT(cudaGraphicsUnregisterResource(resource_));
  resource_ = nullptr;
  mapped_ = false;
}

}  // namespace pcv
