/// @brief The CUDA backend's entry points, seen by the backend factory only when pcv is built
/// with CUDA.
#pragma once

#include <memory>
#include <string>

#include "pcv/raster/backend.hpp"

namespace pcv {

/// True when a CUDA device can be used; otherwise `reason` gets CUDA's words.
bool cudaDeviceUsable(std::string* reason);
std::unique_ptr<Backend> createCudaBackend(const BackendOptions& options);

}  // namespace pcv
