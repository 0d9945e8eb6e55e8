/// @brief Ground points of airborne LiDAR by the Simple Morphological Filter (SMRF, Pingel,
/// Clarke and McBride 2013): a minimum-elevation grid, a progressive opening that finds objects
/// standing on the ground, and each point compared with the ground surface left.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

namespace pcv {

/// SMRF's parameters; the defaults are the paper's (and PDAL's) for airborne data. Lengths are
/// in the points' map units (metres for most projected coordinate systems).
struct GroundFilterSettings {
  double cell = 1.0;       ///< grid cell size (map units, > 0)
  double slope = 0.15;     ///< slope threshold (rise over run, >= 0): what the terrain may climb
  double window = 18.0;    ///< largest opening window radius (map units, >= cell): the widest
                           ///< object the filter removes is about twice this
  double threshold = 0.5;  ///< elevation threshold (map units, >= 0): how far off the ground
                           ///< surface a ground point may lie on flat terrain
  double scalar = 1.25;    ///< elevation scalar (>= 0): extra threshold per unit of the ground
                           ///< surface's slope, for steep terrain
};

/// Throws InputError naming the parameter and what it must be (a non-positive or non-finite
/// cell, a window smaller than the cell, a negative slope, threshold or scalar).
void checkGroundFilterSettings(const GroundFilterSettings& settings);

/// Grid cells the filter may use at most (about 50 bytes each, some 3 GiB in all; an 8 km square
/// at 1 m): a cell too small for the points' extent is an InputError, not an exhausted memory.
inline constexpr uint64_t kGroundFilterMaxCells = uint64_t(1) << 26;

/// A part of a grid that a whole dataset defines: a dataset classified tile by tile gives each
/// tile (with the buffer around it) the cells the whole dataset's grid has there, elevations from
/// the same height, so a cell holds the same points whichever tile's run it belongs to.
struct GroundGridWindow {
  glm::dvec3 origin{0.0};  ///< lower corner of the dataset grid's cell (0, 0); the height that
                           ///< elevations are measured from (map units)
  int64_t firstColumn = 0, firstRow = 0;  ///< the window's first cell, in the dataset's grid
  int64_t columns = 0, rows = 0;          ///< the window's size in cells (> 0)
  /// Cells across the whole dataset's diagonal: where the opening stops growing (the same for
  /// every window, so every tile runs the same number of opening steps).
  double datasetDiagonalCells = 0.0;

  /// The dataset grid's column and row of (x, y), unclamped: the one rule that puts points in
  /// cells, for cropping and for the filter alike.
  int64_t datasetColumn(double x, double cell) const;
  int64_t datasetRow(double y, double cell) const;
  /// Whether (x, y) falls in one of the window's cells.
  bool holds(double x, double y, double cell) const;
};

/// The window of the dataset grid over [low, high] (x and y; map units), grown to whole cells
/// and clipped to the dataset's cells. The dataset grid starts at `datasetLow` snapped down to a
/// multiple of `cell` (so that bounds differing by less than a cell, as headers rounded one way
/// or another do, give the same grid), z too, and ends at the cell of `datasetHigh`. Throws
/// InputError when the window would hold more than kGroundFilterMaxCells cells or misses the
/// dataset.
GroundGridWindow groundGridWindow(const glm::dvec3& datasetLow, const glm::dvec3& datasetHigh,
                                  const glm::dvec2& low, const glm::dvec2& high, double cell);

/// 1 for each ground point of `points` (world coordinates, z up), 0 for the rest. Points with a
/// non-zero `excluded` entry (empty: none; else one per point) are never ground and do not shape
/// the ground surface (noise found first, say). The result depends on the points and their
/// order alone, never on the thread count; the same points in another order get the same labels
/// (each label follows its point). The grid lies over the points' extent, or is `window` (may
/// be null) of a dataset's grid: points outside it count in its edge cells. Throws InputError
/// for bad settings, no points, or a grid of more than kGroundFilterMaxCells cells.
std::vector<uint8_t> groundPoints(std::span<const glm::dvec3> points,
                                  const GroundFilterSettings& settings = {},
                                  std::span<const uint8_t> excluded = {},
                                  const GroundGridWindow* window = nullptr);

}  // namespace pcv
