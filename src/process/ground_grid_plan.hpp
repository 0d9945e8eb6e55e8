/// @brief The ground filter's grid from the points' extent and the settings: where it lies, the
/// height elevations are measured from, and how far the opening grows. One plan for the CPU
/// filter and its CUDA twin.
#pragma once

#include <cstdint>

#include "classify_math.hpp"
#include "pcv/process/ground_filter.hpp"

namespace pcv::process {

/// The extent of the points that shape the surface (finite, not excluded); minX is +infinity
/// when there is none.
struct GroundExtent {
  double minX = INFINITY, minY = INFINITY, minZ = INFINITY;
  double maxX = -INFINITY, maxY = -INFINITY;

  bool empty() const { return !std::isfinite(minX); }
};

struct GroundGridPlan {
  GridFrame frame;
  double baseHeight = 0.0;  ///< elevations are kept relative to it, so floats hold them finely
  int maxRadius = 1;        ///< the opening's largest disk, in cells
};

/// The slope threshold the paper uses to find low outliers: a cell more than 5 cells' width
/// below its neighbourhood is not terrain.
inline constexpr double kLowOutlierSlope = 5.0;

/// The grid over `extent` (not empty), or `window` (may be null) of a dataset's grid. Throws
/// InputError for a grid of more than kGroundFilterMaxCells cells.
GroundGridPlan planGroundGrid(const GroundExtent& extent, const GroundFilterSettings& settings,
                              const GroundGridWindow* window);

}  // namespace pcv::process
