/// @brief The per-point and per-cell arithmetic of the ground and noise filters, compiled by both
/// g++ and nvcc, so that the CPU filters and their CUDA twins give the same classes bit for bit.
#pragma once

// Equal results rest on IEEE double and float +, -, *, /, sqrt and floor, evaluated in the order
// written, without fused multiply-adds: both targets are built with contraction off (nvcc
// -fmad=false, g++ -ffp-contract=off). No library function whose rounding differs between libm
// and CUDA's math library (hypot, for one) is used here.
#include <cmath>
#include <cstdint>

#include "pcv/core/host_device.hpp"

namespace pcv::process {

/// Where the ground filter's grid lies: the corner its cells are counted from, its first cell
/// counted from there (0 unless it is a window of a dataset's grid), cell size and size in
/// cells. A point's cell is found from the corner, then shifted: the same floor for a window as
/// for the whole grid.
struct GridFrame {
  double originX = 0.0, originY = 0.0;
  int64_t firstColumn = 0, firstRow = 0;
  double cell = 1.0;
  int64_t width = 0, height = 0;

  PCV_HOST_DEVICE int64_t column(double x) const {
    return clampCell(int64_t(std::floor((x - originX) / cell)) - firstColumn, width);
  }
  PCV_HOST_DEVICE int64_t row(double y) const {
    return clampCell(int64_t(std::floor((y - originY) / cell)) - firstRow, height);
  }
  /// Positions in cells from the grid's first cell. Exact shifts of the dataset's: (x - origin) /
  /// cell is a double below 2^52, so subtracting a whole number of cells rounds nothing.
  PCV_HOST_DEVICE double columnPosition(double x) const {
    return (x - originX) / cell - double(firstColumn);
  }
  PCV_HOST_DEVICE double rowPosition(double y) const {
    return (y - originY) / cell - double(firstRow);
  }

  PCV_HOST_DEVICE static int64_t clampCell(int64_t index, int64_t cells) {
    return index < 0 ? 0 : (index > cells - 1 ? cells - 1 : index);
  }
};

/// One axis of bilinear interpolation between cell centres: the lower cell and the weight of
/// the upper one; constant beyond the outer centres.
PCV_HOST_DEVICE inline void interpolationAxis(double position, int64_t cells, int64_t& lower,
                                              double& weight) {
  if (cells == 1) {
    lower = 0;
    weight = 0.0;
    return;
  }
  const double centre = position - 0.5;
  lower = GridFrame::clampCell(int64_t(std::floor(centre)), cells - 1);
  const double offset = centre - double(lower);
  weight = offset < 0.0 ? 0.0 : (offset > 1.0 ? 1.0 : offset);
}

/// The grid `z` (row-major, frame.width x frame.height) interpolated bilinearly at (x, y).
PCV_HOST_DEVICE inline double interpolateGrid(const float* z, const GridFrame& frame, double x,
                                              double y) {
  int64_t cx, cy;
  double tx, ty;
  interpolationAxis(frame.columnPosition(x), frame.width, cx, tx);
  interpolationAxis(frame.rowPosition(y), frame.height, cy, ty);
  const int64_t cx1 = cx + 1 < frame.width ? cx + 1 : frame.width - 1;
  const int64_t cy1 = cy + 1 < frame.height ? cy + 1 : frame.height - 1;
  const auto at = [&](int64_t column, int64_t row) {
    return double(z[row * frame.width + column]);
  };
  const double bottom = at(cx, cy) * (1.0 - tx) + at(cx1, cy) * tx;
  const double top = at(cx, cy1) * (1.0 - tx) + at(cx1, cy1) * tx;
  return bottom * (1.0 - ty) + top * ty;
}

/// Whether a point (x, y, z; z measured from the grid's base height) is ground: within
/// threshold + scalar * slope of the surface, both interpolated at the point.
PCV_HOST_DEVICE inline bool isGroundPoint(const float* surface, const float* slope,
                                          const GridFrame& frame, double x, double y, double z,
                                          double threshold, double scalar) {
  const double height = z - interpolateGrid(surface, frame, x, y);
  const double allowed = threshold + scalar * interpolateGrid(slope, frame, x, y);
  return std::fabs(height) <= allowed;
}

/// The magnitude of the surface's gradient (rise over run) at cell (x, y): central differences,
/// one-sided at the edges, 0 along an axis one cell wide.
PCV_HOST_DEVICE inline float slopeAtCell(const float* z, int64_t width, int64_t height, int64_t x,
                                         int64_t y, double cell) {
  const auto derivative = [&](int64_t before, int64_t after, float zBefore, float zAfter) {
    return after > before ? double(zAfter - zBefore) / (double(after - before) * cell) : 0.0;
  };
  const int64_t x0 = x > 0 ? x - 1 : 0, x1 = x + 1 < width ? x + 1 : width - 1;
  const int64_t y0 = y > 0 ? y - 1 : 0, y1 = y + 1 < height ? y + 1 : height - 1;
  const double gx = derivative(x0, x1, z[y * width + x0], z[y * width + x1]);
  const double gy = derivative(y0, y1, z[y0 * width + x], z[y1 * width + x]);
  return float(std::sqrt(gx * gx + gy * gy));
}

/// An empty cell filled from its 8-neighbours that hold a value (not NaN), visited row by row:
/// their mean, NaN when none does.
PCV_HOST_DEVICE inline float neighbourMean(const float* z, int64_t width, int64_t height, int64_t x,
                                           int64_t y) {
  double sum = 0.0;
  int count = 0;
  for (int64_t dy = -1; dy <= 1; ++dy) {
    for (int64_t dx = -1; dx <= 1; ++dx) {
      const int64_t nx = x + dx, ny = y + dy;
      if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
      const float v = z[ny * width + nx];
      if (!std::isnan(v)) sum += v, ++count;
    }
  }
  return float(sum / count);
}

/// One relaxation step of a filled-in cell: the mean of its 4-neighbours (left, right, below,
/// above), or its own value with none.
PCV_HOST_DEVICE inline float relaxedValue(const float* z, int64_t width, int64_t height, int64_t x,
                                          int64_t y) {
  const int64_t i = y * width + x;
  double sum = 0.0;
  int count = 0;
  if (x > 0) sum += z[i - 1], ++count;
  if (x + 1 < width) sum += z[i + 1], ++count;
  if (y > 0) sum += z[i - width], ++count;
  if (y + 1 < height) sum += z[i + width], ++count;
  return count ? float(sum / count) : z[i];
}

/// Relaxation sweeps of the filled-in cells: enough to smooth the ring fill's terraces over
/// holes of tens of cells; the result does not depend on when it stops, only on the count.
inline constexpr int kRelaxationSweeps = 64;

/// The noise filter's cubes: key = | x cube (21 bits) | y cube (21) | z cube (21) |, each
/// counted from the points' minimum.
inline constexpr int kCubeAxisBits = 21;
inline constexpr int64_t kCubeAxisCount = int64_t(1) << kCubeAxisBits;

PCV_HOST_DEVICE inline uint64_t cubeKey(int64_t x, int64_t y, int64_t z) {
  return (uint64_t(x) << (2 * kCubeAxisBits)) | (uint64_t(y) << kCubeAxisBits) | uint64_t(z);
}

/// The cube of one coordinate: floor((v - low) / radius), at most the last cube.
PCV_HOST_DEVICE inline int64_t cubeOf(double v, double low, double radius) {
  const int64_t c = int64_t(std::floor((v - low) / radius));
  return c < kCubeAxisCount - 1 ? c : kCubeAxisCount - 1;
}

/// Squared distance between two points, summed x, y, then z.
PCV_HOST_DEVICE inline double squaredDistance(double ax, double ay, double az, double bx, double by,
                                              double bz) {
  const double dx = bx - ax, dy = by - ay, dz = bz - az;
  return dx * dx + dy * dy + dz * dz;
}

}  // namespace pcv::process
