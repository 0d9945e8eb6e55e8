/// @brief The CUDA twins of the ground and noise filters, over points already on the GPU: what
/// the CUDA point classifier runs after its upload. Each gives its CPU filter's flags exactly.
#pragma once

#include <cstdint>

#include "pcv/process/ground_filter.hpp"
#include "pcv/process/noise_filter.hpp"

namespace pcv::process_cuda {

/// Points on the GPU as glm::dvec3 lays them out: x, y, z of each, `count` points.
struct DevicePoints {
  const double* xyz = nullptr;
  uint64_t count = 0;
};

/// Finite points' extent on the GPU, those flagged in `excluded` (a GPU array, may be null) left
/// out: low.x is +infinity when no point counts.
struct DeviceExtent {
  double low[3], high[3];
};
DeviceExtent extentOnDevice(const DevicePoints& points, const uint8_t* excluded);

/// noisePoints's flags into `noise` (GPU, points.count bytes). At most 2^32 - 1 points. Throws
/// InputError as noisePoints does, OutOfMemoryError when the GPU lacks room.
void findNoiseOnDevice(const DevicePoints& points, const NoiseFilterSettings& settings,
                       uint8_t* noise);

/// groundPoints's flags into `ground` (GPU, points.count bytes); `excluded` (GPU, may be null)
/// as groundPoints's. Throws InputError as groundPoints does, OutOfMemoryError.
void findGroundOnDevice(const DevicePoints& points, const uint8_t* excluded,
                        const GroundFilterSettings& settings, const GroundGridWindow* window,
                        uint8_t* ground);

/// Device bytes a run over `count` points holds at its peak, besides the points themselves and
/// the ground filter's grids: the noise filter's sort and cubes.
uint64_t noiseWorkingBytes(uint64_t count);

}  // namespace pcv::process_cuda
