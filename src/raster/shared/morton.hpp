/// @brief Morton (Z-order) codes of points, so sorting by code puts near points near each other
/// in memory: batches get small bounding boxes and warps hit nearby pixels.
#pragma once

#include <cstdint>

#include "pcv/core/host_device.hpp"

namespace pcv {

/// Spreads the low 21 bits of v so that bit i moves to bit 3i.
PCV_HOST_DEVICE PCV_FORCE_INLINE uint64_t spreadBits3(uint64_t v) {
  v &= 0x1fffff;
  v = (v | v << 32) & 0x1f00000000ffffull;
  v = (v | v << 16) & 0x1f0000ff0000ffull;
  v = (v | v << 8) & 0x100f00f00f00f00full;
  v = (v | v << 4) & 0x10c30c30c30c30c3ull;
  v = (v | v << 2) & 0x1249249249249249ull;
  return v;
}

/// Grid that maps positions in a box to 21-bit integer cells per axis.
struct MortonGrid {
  float min[3];           ///< box minimum
  float cellsPerUnit[3];  ///< (2^21 - 1) / box extent, 0 for a flat axis
};

/// The grid cell of a coordinate on one axis, 0 to 2^21 - 1; NaN and out-of-box values clamp to
/// the edges ("not >= 0" also catches NaN). The cell fits 32 bits, whose conversion is one
/// instruction where a 64-bit unsigned one is several.
PCV_HOST_DEVICE PCV_FORCE_INLINE uint32_t mortonCell(const MortonGrid& grid, int axis, float v) {
  const float cell = (v - grid.min[axis]) * grid.cellsPerUnit[axis];
  return !(cell >= 0.0f) ? 0u : (cell >= 2097151.0f ? 2097151u : uint32_t(int32_t(cell)));
}

/// 63-bit Morton code of a point in the grid's box; NaN and out-of-box values clamp to the edges.
PCV_HOST_DEVICE PCV_FORCE_INLINE uint64_t mortonCode(const MortonGrid& grid, float x, float y,
                                                     float z) {
  return spreadBits3(mortonCell(grid, 0, x)) | spreadBits3(mortonCell(grid, 1, y)) << 1 |
         spreadBits3(mortonCell(grid, 2, z)) << 2;
}

/// The grid over a box [min, max] (finite points' bounds); a flat or empty axis gets 0 cells.
PCV_HOST_DEVICE inline MortonGrid makeMortonGrid(const float* min, const float* max) {
  MortonGrid grid{};
  for (int axis = 0; axis < 3; ++axis) {
    const float extent = max[axis] - min[axis];
    grid.min[axis] = min[axis];
    grid.cellsPerUnit[axis] = extent > 0.0f ? 2097151.0f / extent : 0.0f;
  }
  return grid;
}

}  // namespace pcv
