/// @brief GPU twins of the CPU layout steps (src/raster/cpu/point_layout.hpp): Morton order with
/// CUB's stable radix sort, and the compact layout of the fast method.
#pragma once

#include <cuda_runtime_api.h>

#include "pcv/core/point.hpp"
#include "pcv/cuda/device_buffer.hpp"
#include "pcv/raster/compact_points.hpp"

namespace pcv::cuda {

/// Reorders `points` by Morton code (stable). Allocates the sort's scratch and a second point
/// array while it runs; throws OutOfMemoryError naming the sizes when they do not fit.
void sortPointsByMorton(DeviceBuffer<Point>& points, cudaStream_t stream);

struct CompactPointsDevice {
  DeviceBuffer<uint32_t> positions;  ///< quantized position words, one per point
  DeviceBuffer<uint32_t> colors;     ///< RGBA8, one per point
  DeviceBuffer<Batch> batches;

  uint64_t bytes() const { return positions.bytes() + colors.bytes() + batches.bytes(); }
};

/// Builds the compact layout of points already in Morton order.
void buildCompactPoints(const Point* points, uint64_t count, CompactPointsDevice& out,
                        cudaStream_t stream);

}  // namespace pcv::cuda
