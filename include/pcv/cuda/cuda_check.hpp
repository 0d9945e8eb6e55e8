/// @brief Checks for CUDA runtime calls: CUDA_CHECK throws with file:line, the failing expression
/// and CUDA's error string; CUDA_CHECK_PRINT logs instead, for destructors.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdio>
#include <string>

#include "pcv/core/error.hpp"

namespace pcv {

/// A CUDA runtime call failed; the message holds the call, the place and CUDA's words.
class CudaError : public Error {
 public:
  CudaError(cudaError_t code, const char* expression, const char* file, int line)
      : Error(std::string(file) + ":" + std::to_string(line) + ": " + expression +
              " failed: " + cudaGetErrorName(code) + " (" + cudaGetErrorString(code) + ")"),
        code_(code) {}
  cudaError_t code() const { return code_; }

 private:
  cudaError_t code_;
};

}  // namespace pcv

#define CUDA_CHECK(expression)                                                 \
  do {                                                                         \
    const cudaError_t pcvCudaStatus_ = (expression);                           \
    if (pcvCudaStatus_ != cudaSuccess) {                                       \
      throw ::pcv::CudaError(pcvCudaStatus_, #expression, __FILE__, __LINE__); \
    }                                                                          \
  } while (0)

// Quiet when the driver is already shutting down (static destructors at exit).
#define CUDA_CHECK_PRINT(expression)                                                       \
  do {                                                                                     \
    const cudaError_t pcvCudaStatus_ = (expression);                                       \
    if (pcvCudaStatus_ != cudaSuccess && pcvCudaStatus_ != cudaErrorCudartUnloading) {     \
      std::fprintf(stderr, "pcv: %s:%d: %s failed: %s\n", __FILE__, __LINE__, #expression, \
                   cudaGetErrorString(pcvCudaStatus_));                                    \
    }                                                                                      \
  } while (0)
