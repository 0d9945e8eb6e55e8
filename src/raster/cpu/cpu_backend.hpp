/// @brief The CPU backend: the same per-point math as the CUDA backend, on all host threads. It is
/// the test oracle for CUDA and the renderer on machines without an NVIDIA GPU.
#pragma once

#include <memory>

#include "../raster_backend.hpp"

namespace pcv {

std::unique_ptr<RasterBackend> createCpuBackend(PointStorage storage);

}  // namespace pcv
