/// @brief The CUDA backend's entry points, seen by the renderer only when pcv is built with CUDA.
#pragma once

#include <memory>
#include <string>

#include "../raster_backend.hpp"

namespace pcv {

/// True when a CUDA device can be used; otherwise `reason` says why not in the user's words.
bool cudaDeviceUsable(std::string* reason);
std::unique_ptr<RasterBackend> createCudaBackend(PointStorage storage);

}  // namespace pcv
