/// @brief The CPU backend: the same per-point math as the CUDA backend, on all host threads. It is
/// the test oracle for CUDA and the renderer on machines without an NVIDIA GPU.
#pragma once

#include <memory>

#include "pcv/raster/backend.hpp"

namespace pcv {

std::unique_ptr<Backend> createCpuBackend(const BackendOptions& options);

}  // namespace pcv
