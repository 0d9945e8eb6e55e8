/// @brief The CPU twins of the CUDA point layout steps: Morton ordering and the compact layout
/// (include/pcv/raster/compact_points.hpp). Same order, same words, same batches, bit for bit.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "pcv/core/point.hpp"
#include "pcv/raster/compact_points.hpp"

namespace pcv {

/// Reorders points by the Morton code of their position in the finite points' bounds; equal
/// codes keep their original order (a stable sort, like the GPU's radix sort).
void sortPointsByMorton(std::vector<Point>& points);

struct CompactPoints {
  std::vector<uint32_t> positions;  ///< quantized position words, one per point
  std::vector<uint32_t> colors;     ///< RGBA8, one per point
  std::vector<Batch> batches;       ///< consecutive runs of kBatchSize points
};

/// Builds the compact layout of points that are already in Morton order.
CompactPoints buildCompactPoints(std::span<const Point> points);

}  // namespace pcv
