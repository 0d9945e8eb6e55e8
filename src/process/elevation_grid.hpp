/// @brief The raster steps of the ground filter on a grid of elevations: filling empty cells,
/// the morphological opening with a disk, and the progressive opening that marks objects.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace pcv::process {

/// A row-major grid of elevations; NaN marks an empty cell.
struct ElevationGrid {
  int64_t width = 0;   ///< cells along x
  int64_t height = 0;  ///< cells along y
  std::vector<float> z;

  float& at(int64_t x, int64_t y) { return z[size_t(y * width + x)]; }
  float at(int64_t x, int64_t y) const { return z[size_t(y * width + x)]; }
};

inline constexpr float kEmptyCell = std::numeric_limits<float>::quiet_NaN();

/// The disk of `radius` cells as rows: for each row offset dy = -radius .. radius, the half-width
/// floor(sqrt(radius² - dy²)) of its run of cells.
std::vector<int64_t> diskHalfWidths(int radius);

/// Fills every empty cell from the filled ones (at least one must be filled): ring by ring
/// outwards, each cell the mean of its already filled 8-neighbours, then relaxed towards the
/// mean of its 4-neighbours (a membrane over the holes, as the paper's spring inpainting), the
/// filled cells held fixed. Deterministic.
void fillEmptyCells(ElevationGrid& grid);

/// The opening (erosion, then dilation) of `grid` (no empty cells) with a disk of `radius`
/// cells: bumps narrower than the disk are cut down to their surroundings.
ElevationGrid openWithDisk(const ElevationGrid& grid, int radius);

/// The progressive morphological filter: openings with disks of radius 1, 2, ... maxRadius
/// cells, each of the previous result; a cell that drops by more than
/// slope * radius * cellSize in a step is an object cell (1). `grid` has no empty cells.
std::vector<uint8_t> progressiveObjectCells(const ElevationGrid& grid, double cellSize,
                                            double slope, int maxRadius);

}  // namespace pcv::process
