// SMRF as Pingel, Clarke and McBride (2013) describe it, on the CPU:
//   1. the minimum surface: the lowest point of each grid cell, empty cells filled in;
//   2. low outliers: cells far below their neighbours (the progressive filter on the negated
//      surface, one cell wide, slope 5), emptied and filled again;
//   3. objects: the progressive opening with disks growing one cell at a time up to the window,
//      marking cells that drop more than slope * radius in a step;
//   4. the provisional ground surface: the minimum surface without low outliers and objects,
//      filled in; its slope from central differences;
//   5. each point is ground when it lies within threshold + scalar * slope of that surface, both
//      interpolated bilinearly at the point.
#include "pcv/process/ground_filter.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "elevation_grid.hpp"
#include "ground_grid_plan.hpp"
#include "pcv/core/error.hpp"
#include "pcv/core/parallel.hpp"

namespace pcv {
namespace {

using process::ElevationGrid;
using process::GridFrame;
using process::GroundExtent;
using process::GroundGridPlan;

bool usable(const glm::dvec3& p) {
  return std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z);
}

/// The surface's slope per cell (process::slopeAtCell).
ElevationGrid slopeOf(const ElevationGrid& surface, double cell) {
  ElevationGrid slope{surface.width, surface.height, std::vector<float>(surface.z.size())};
  for (int64_t y = 0; y < surface.height; ++y) {
    for (int64_t x = 0; x < surface.width; ++x) {
      slope.at(x, y) =
          process::slopeAtCell(surface.z.data(), surface.width, surface.height, x, y, cell);
    }
  }
  return slope;
}

/// The surface with the marked cells emptied and filled again from the rest.
ElevationGrid withoutCells(const ElevationGrid& surface, const std::vector<uint8_t>& marked) {
  ElevationGrid result = surface;
  for (size_t i = 0; i < marked.size(); ++i) {
    if (marked[i]) result.z[i] = process::kEmptyCell;
  }
  process::fillEmptyCells(result);
  return result;
}

void checkGridSize(double columns, double rows, double cell) {
  if (columns * rows > double(kGroundFilterMaxCells)) {
    std::ostringstream message;
    message << "ground filter: a cell size of " << cell << " makes a grid of " << columns << " x "
            << rows << " cells over the area, more than " << kGroundFilterMaxCells
            << ": expected a larger cell size";
    throw InputError(message.str());
  }
}

}  // namespace

int64_t GroundGridWindow::datasetColumn(double x, double cell) const {
  return int64_t(std::floor((x - origin.x) / cell));
}

int64_t GroundGridWindow::datasetRow(double y, double cell) const {
  return int64_t(std::floor((y - origin.y) / cell));
}

bool GroundGridWindow::holds(double x, double y, double cell) const {
  const int64_t column = datasetColumn(x, cell), row = datasetRow(y, cell);
  return column >= firstColumn && column < firstColumn + columns && row >= firstRow &&
         row < firstRow + rows;
}

GroundGridWindow groundGridWindow(const glm::dvec3& datasetLow, const glm::dvec3& datasetHigh,
                                  const glm::dvec2& low, const glm::dvec2& high, double cell) {
  if (!std::isfinite(cell) || cell <= 0.0) {
    throw InputError("ground filter: cell size " + std::to_string(cell) + ": expected > 0");
  }
  GroundGridWindow window;
  window.origin = {std::floor(datasetLow.x / cell) * cell, std::floor(datasetLow.y / cell) * cell,
                   std::floor(datasetLow.z / cell) * cell};
  const int64_t lastColumn = window.datasetColumn(datasetHigh.x, cell);
  const int64_t lastRow = window.datasetRow(datasetHigh.y, cell);
  window.datasetDiagonalCells = std::hypot(double(lastColumn + 1), double(lastRow + 1));
  window.firstColumn = std::max<int64_t>(0, window.datasetColumn(low.x, cell));
  window.firstRow = std::max<int64_t>(0, window.datasetRow(low.y, cell));
  window.columns =
      std::min(lastColumn, window.datasetColumn(high.x, cell)) - window.firstColumn + 1;
  window.rows = std::min(lastRow, window.datasetRow(high.y, cell)) - window.firstRow + 1;
  if (window.columns <= 0 || window.rows <= 0) {
    throw InputError("ground filter: the area to classify lies outside the dataset's extent");
  }
  checkGridSize(double(window.columns), double(window.rows), cell);
  return window;
}

void checkGroundFilterSettings(const GroundFilterSettings& settings) {
  const auto fail = [](const std::string& what) { throw InputError("ground filter: " + what); };
  const auto text = [](double value) {
    std::ostringstream out;
    out << value;
    return out.str();
  };
  if (!std::isfinite(settings.cell) || settings.cell <= 0.0) {
    fail("cell size " + text(settings.cell) + ": expected a length > 0");
  }
  if (!std::isfinite(settings.window) || settings.window < settings.cell) {
    fail("window " + text(settings.window) + ": expected a radius at least the cell size (" +
         text(settings.cell) + ")");
  }
  if (!std::isfinite(settings.slope) || settings.slope < 0.0) {
    fail("slope " + text(settings.slope) + ": expected a rise over run >= 0");
  }
  if (!std::isfinite(settings.threshold) || settings.threshold < 0.0) {
    fail("threshold " + text(settings.threshold) + ": expected a height >= 0");
  }
  if (!std::isfinite(settings.scalar) || settings.scalar < 0.0) {
    fail("scalar " + text(settings.scalar) + ": expected a factor >= 0");
  }
}

namespace process {

GroundGridPlan planGroundGrid(const GroundExtent& extent, const GroundFilterSettings& settings,
                              const GroundGridWindow* window) {
  GroundGridPlan plan;
  GridFrame& frame = plan.frame;
  frame = {.originX = extent.minX, .originY = extent.minY, .cell = settings.cell};
  plan.baseHeight = extent.minZ;
  double diagonalCells = 0.0;
  if (window) {
    // A window of a dataset's grid: its cells and heights, whatever points this run holds.
    frame.originX = window->origin.x;
    frame.originY = window->origin.y;
    frame.firstColumn = window->firstColumn;
    frame.firstRow = window->firstRow;
    plan.baseHeight = window->origin.z;
    checkGridSize(double(window->columns), double(window->rows), settings.cell);
    frame.width = window->columns;
    frame.height = window->rows;
    diagonalCells = std::ceil(window->datasetDiagonalCells);
  } else {
    const double columns = std::floor((extent.maxX - extent.minX) / settings.cell) + 1.0;
    const double rows = std::floor((extent.maxY - extent.minY) / settings.cell) + 1.0;
    checkGridSize(columns, rows, settings.cell);
    frame.width = int64_t(columns);
    frame.height = int64_t(rows);
    diagonalCells = std::ceil(std::hypot(double(frame.width), double(frame.height)));
  }
  // Beyond the grid's diagonal a disk covers the whole grid from anywhere: the opening is the
  // global minimum and stops changing, so larger windows add time and nothing else. (A dataset's
  // window counts the dataset's diagonal: every tile runs the steps the whole dataset would.)
  plan.maxRadius =
      int(std::clamp(std::floor(settings.window / settings.cell + 1e-9), 1.0, diagonalCells));
  return plan;
}

}  // namespace process

std::vector<uint8_t> groundPoints(std::span<const glm::dvec3> points,
                                  const GroundFilterSettings& settings,
                                  std::span<const uint8_t> excluded,
                                  const GroundGridWindow* window) {
  checkGroundFilterSettings(settings);
  if (points.empty()) throw InputError("ground filter: no points to classify");
  if (!excluded.empty() && excluded.size() != points.size()) {
    throw InputError("ground filter: " + std::to_string(excluded.size()) + " exclusion flags for " +
                     std::to_string(points.size()) + " points");
  }
  const auto takesPart = [&](size_t i) {
    return (excluded.empty() || !excluded[i]) && usable(points[i]);
  };

  GroundExtent extent;
  for (size_t i = 0; i < points.size(); ++i) {
    if (!takesPart(i)) continue;
    const glm::dvec3& p = points[i];
    extent.minX = std::min(extent.minX, p.x);
    extent.maxX = std::max(extent.maxX, p.x);
    extent.minY = std::min(extent.minY, p.y);
    extent.maxY = std::max(extent.maxY, p.y);
    extent.minZ = std::min(extent.minZ, p.z);
  }
  std::vector<uint8_t> ground(points.size(), 0);
  if (extent.empty()) return ground;  // every point excluded: none is ground
  const GroundGridPlan plan = process::planGroundGrid(extent, settings, window);
  const GridFrame& frame = plan.frame;

  // 1. The minimum surface.
  ElevationGrid minimum{
      frame.width, frame.height,
      std::vector<float>(size_t(frame.width * frame.height), process::kEmptyCell)};
  for (size_t i = 0; i < points.size(); ++i) {
    if (!takesPart(i)) continue;
    float& cell = minimum.at(frame.column(points[i].x), frame.row(points[i].y));
    const float z = float(points[i].z - plan.baseHeight);
    if (std::isnan(cell) || z < cell) cell = z;
  }
  std::vector<uint8_t> emptyCells(minimum.z.size());
  for (size_t i = 0; i < emptyCells.size(); ++i) emptyCells[i] = std::isnan(minimum.z[i]);
  ElevationGrid filled = minimum;
  process::fillEmptyCells(filled);

  // 2. Low outliers: peaks of the negated surface one cell wide.
  ElevationGrid negated = filled;
  for (float& z : negated.z) z = -z;
  const std::vector<uint8_t> lowOutliers =
      process::progressiveObjectCells(negated, settings.cell, process::kLowOutlierSlope, 1);
  std::vector<uint8_t> removed = emptyCells;
  for (size_t i = 0; i < removed.size(); ++i) removed[i] |= lowOutliers[i];
  const ElevationGrid withoutOutliers = withoutCells(minimum, removed);

  // 3. Objects: the progressive opening up to the window's radius in cells.
  const std::vector<uint8_t> objects = process::progressiveObjectCells(
      withoutOutliers, settings.cell, settings.slope, plan.maxRadius);

  // 4. The provisional ground surface and its slope.
  for (size_t i = 0; i < removed.size(); ++i) removed[i] |= objects[i];
  const ElevationGrid surface = withoutCells(minimum, removed);
  const ElevationGrid surfaceSlope = slopeOf(surface, settings.cell);

  // 5. Each point against the surface; each label is written by one thread, whatever the count.
  parallelFor(points.size(), [&](uint64_t begin, uint64_t end) {
    for (uint64_t i = begin; i < end; ++i) {
      if (!takesPart(i)) continue;
      const glm::dvec3& p = points[i];
      ground[i] = process::isGroundPoint(surface.z.data(), surfaceSlope.z.data(), frame, p.x, p.y,
                                         p.z - plan.baseHeight, settings.threshold, settings.scalar)
                      ? 1
                      : 0;
    }
  });
  return ground;
}

}  // namespace pcv
