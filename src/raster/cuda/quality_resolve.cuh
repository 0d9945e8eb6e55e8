/// @brief The per-pixel kernels of the quality pipeline: hole filling and the resolve with
/// blending, eye-dome lighting and background; the code is src/raster/shared/quality_resolve.hpp.
#pragma once

#include <cuda_runtime.h>

#include "shared/quality_resolve.hpp"
#include "resolve.cuh"

namespace pcv::cuda {

struct QualityResolveKernelParams {
  QualityResolveParams resolve;  ///< inputs, device pointers
  PixelSink out;                 ///< width * height output pixels
};

__global__ void fillHolesKernel(FillParams p);
__global__ void qualityResolveKernel(QualityResolveKernelParams p);

}  // namespace pcv::cuda
