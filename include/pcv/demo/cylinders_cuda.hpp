/// @brief The demo cylinders generated straight into GPU memory (the CUDA twin of
/// generateCylinderPoints; same bits).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "pcv/demo/cylinders.hpp"

namespace pcv {

/// Writes `pointCount` points to `devicePoints` (device memory owned by the caller) on `stream`.
void generateCylinderPointsOnDevice(const CylinderSet& set, Point* devicePoints,
                                    uint64_t pointCount, cudaStream_t stream);
/// Writes points [first, first + count) of a set of `totalCount` to `devicePoints`.
void generateCylinderPointsOnDevice(const CylinderSet& set, uint64_t totalCount, uint64_t first,
                                    uint64_t count, Point* devicePoints, cudaStream_t stream);

}  // namespace pcv
