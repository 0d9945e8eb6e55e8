// SMRF on the GPU, step for step as ground_filter.cpp and elevation_grid.cpp run it on the CPU,
// with the same arithmetic (classify_math.hpp) so that every cell and label is the CPU's:
//   - the minimum surface by atomicMin on the floats' ordered bits (a minimum is exact in any
//     order);
//   - empty cells filled ring by ring (a ring: the cells still empty beside a filled one; each
//     the mean of its filled neighbours as they were before the ring), then relaxed in Jacobi
//     sweeps, both reading one buffer and writing another as the CPU's rings and sweeps do;
//   - erosion and dilation with a disk: each disk row's run of cells as two overlapping
//     power-of-two spans of a sparse table (minimum or maximum of 2^k cells from each cell),
//     exact because a minimum does not depend on how its cells are grouped;
//   - the slope and each point's label as the CPU computes them.
#include <cmath>
#include <limits>
#include <vector>

#include "classify_kernels.hpp"
#include "classify_math.hpp"
#include "elevation_grid.hpp"
#include "ground_grid_plan.hpp"
#include "kernel_support.cuh"
#include "pcv/core/error.hpp"
#include "pcv/cuda/cuda_check.hpp"
#include "pcv/cuda/device_buffer.hpp"

namespace pcv::process_cuda {
namespace {

using process::GridFrame;

/// Floats as unsigned integers in the same order, for atomicMin.
__device__ unsigned orderedBits(float value) {
  const unsigned bits = __float_as_uint(value);
  return (bits >> 31) ? ~bits : bits | 0x80000000u;
}

__device__ float fromOrderedBits(unsigned ordered) {
  return __uint_as_float((ordered >> 31) ? ordered & 0x7fffffffu : ~ordered);
}

/// No point fell in the cell.
constexpr unsigned kNoPoint = 0xffffffffu;

struct MinimumParams {
  const double* xyz;
  uint64_t count;
  const uint8_t* excluded;  ///< may be null
  GridFrame frame;
  double baseHeight;
  unsigned* cells;
};

__global__ void minimumKernel(MinimumParams p) {
  const uint64_t i = threadIndex();
  if (i >= p.count) return;
  const double* point = p.xyz + 3 * i;
  if (!takesPart(point, p.excluded, i)) return;
  const int64_t cell = p.frame.row(point[1]) * p.frame.width + p.frame.column(point[0]);
  atomicMin(&p.cells[cell], orderedBits(float(point[2] - p.baseHeight)));
}

__global__ void minimumToFloatKernel(const unsigned* cells, uint64_t count, float* z) {
  const uint64_t i = threadIndex();
  if (i >= count) return;
  z[i] = cells[i] == kNoPoint ? NAN : fromOrderedBits(cells[i]);
}

struct RingParams {
  const float* z;
  const uint8_t* known;
  float* nextZ;
  uint8_t* nextKnown;
  int64_t width, height;
  unsigned* filledAny;
};

__global__ void ringKernel(RingParams p) {
  const uint64_t i = threadIndex();
  if (i >= uint64_t(p.width * p.height)) return;
  const int64_t x = int64_t(i) % p.width, y = int64_t(i) / p.width;
  bool inRing = false;
  if (!p.known[i]) {
    for (int64_t dy = -1; dy <= 1 && !inRing; ++dy) {
      for (int64_t dx = -1; dx <= 1; ++dx) {
        const int64_t nx = x + dx, ny = y + dy;
        if (nx < 0 || ny < 0 || nx >= p.width || ny >= p.height) continue;
        if (p.known[ny * p.width + nx]) {
          inRing = true;
          break;
        }
      }
    }
  }
  if (inRing) {
    p.nextZ[i] = process::neighbourMean(p.z, p.width, p.height, x, y);
    p.nextKnown[i] = 1;
    *p.filledAny = 1;
  } else {
    p.nextZ[i] = p.z[i];
    p.nextKnown[i] = p.known[i];
  }
}

__global__ void relaxKernel(const float* z, const uint8_t* wasEmpty, float* next, int64_t width,
                            int64_t height) {
  const uint64_t i = threadIndex();
  if (i >= uint64_t(width * height)) return;
  next[i] = wasEmpty[i]
                ? process::relaxedValue(z, width, height, int64_t(i) % width, int64_t(i) / width)
                : z[i];
}

__global__ void emptyMaskKernel(const float* z, uint64_t count, uint8_t* empty) {
  const uint64_t i = threadIndex();
  if (i < count) empty[i] = isnan(z[i]) ? 1 : 0;
}

/// out = `z` with the cells flagged in `removed` emptied.
__global__ void withoutCellsKernel(const float* z, const uint8_t* removed, uint64_t count,
                                   float* out) {
  const uint64_t i = threadIndex();
  if (i < count) out[i] = removed[i] ? NAN : z[i];
}

__global__ void negateKernel(const float* z, uint64_t count, float* out) {
  const uint64_t i = threadIndex();
  if (i < count) out[i] = -z[i];
}

__global__ void notKernel(const uint8_t* flags, uint64_t count, uint8_t* out) {
  const uint64_t i = threadIndex();
  if (i < count) out[i] = flags[i] ? 0 : 1;
}

__global__ void anyKernel(const uint8_t* flags, uint64_t count, unsigned* any) {
  const uint64_t i = threadIndex();
  if (i < count && flags[i]) *any = 1;
}

__global__ void orKernel(uint8_t* into, const uint8_t* flags, uint64_t count) {
  const uint64_t i = threadIndex();
  if (i < count) into[i] |= flags[i];
}

__device__ float extreme(float a, float b, bool takeMax) {
  // As std::min / std::max: the first unless the second beats it.
  return takeMax ? (a < b ? b : a) : (b < a ? b : a);
}

/// next[x] = extreme of level[x] and level[x + span] (the level's own value where that lies past
/// the row): spans of 2 * span cells from spans of `span`.
__global__ void sparseLevelKernel(const float* level, float* next, int64_t width, int64_t height,
                                  int64_t span, bool takeMax) {
  const uint64_t i = threadIndex();
  if (i >= uint64_t(width * height)) return;
  const int64_t x = int64_t(i) % width;
  next[i] = x + span < width ? extreme(level[i], level[i + span], takeMax) : level[i];
}

struct DiskParams {
  const float* const* levels;  ///< GPU array of level pointers: level k spans 2^k cells
  const int64_t* halfWidths;   ///< 2 * radius + 1 runs
  int radius;
  int64_t width, height;
  bool takeMax;
  float* out;
};

__global__ void diskKernel(DiskParams p) {
  const uint64_t i = threadIndex();
  if (i >= uint64_t(p.width * p.height)) return;
  const int64_t x = int64_t(i) % p.width, y = int64_t(i) / p.width;
  float value = p.takeMax ? -INFINITY : INFINITY;
  for (int dy = -p.radius; dy <= p.radius; ++dy) {
    const int64_t row = y + dy;
    if (row < 0 || row >= p.height) continue;
    const int64_t halfWidth = p.halfWidths[dy + p.radius];
    const int64_t first = x - halfWidth > 0 ? x - halfWidth : 0;
    const int64_t last = x + halfWidth < p.width - 1 ? x + halfWidth : p.width - 1;
    const int64_t length = last - first + 1;
    const int k = 63 - __clzll(length);
    const float* level = p.levels[k] + row * p.width;
    const float run = extreme(level[first], level[last - (int64_t(1) << k) + 1], p.takeMax);
    value = extreme(value, run, p.takeMax);
  }
  p.out[i] = value;
}

__global__ void dropKernel(const float* last, const float* opened, uint64_t count, double drop,
                           uint8_t* objects) {
  const uint64_t i = threadIndex();
  if (i<count&& double(last[i]) - double(opened[i])> drop) objects[i] = 1;
}

__global__ void slopeKernel(const float* surface, int64_t width, int64_t height, double cell,
                            float* slope) {
  const uint64_t i = threadIndex();
  if (i >= uint64_t(width * height)) return;
  slope[i] =
      process::slopeAtCell(surface, width, height, int64_t(i) % width, int64_t(i) / width, cell);
}

struct LabelParams {
  const double* xyz;
  uint64_t count;
  const uint8_t* excluded;
  const float* surface;
  const float* slope;
  GridFrame frame;
  double baseHeight, threshold, scalar;
  uint8_t* ground;
};

__global__ void labelKernel(LabelParams p) {
  const uint64_t i = threadIndex();
  if (i >= p.count) return;
  const double* point = p.xyz + 3 * i;
  p.ground[i] = takesPart(point, p.excluded, i) &&
                        process::isGroundPoint(p.surface, p.slope, p.frame, point[0], point[1],
                                               point[2] - p.baseHeight, p.threshold, p.scalar)
                    ? 1
                    : 0;
}

/// A grid of `width` x `height` cells on the GPU, and the steps of the filter over such grids.
class DeviceGrids {
 public:
  DeviceGrids(int64_t width, int64_t height)
      : width_(width), height_(height), cells_(uint64_t(width * height)) {}

  uint64_t cells() const { return cells_; }
  unsigned blocks() const { return blocksFor(cells_); }
  DeviceBuffer<float> grid() const { return DeviceBuffer<float>(cells_); }
  DeviceBuffer<uint8_t> flags() const { return DeviceBuffer<uint8_t>(cells_); }

  /// process::fillEmptyCells on the GPU.
  void fillEmptyCells(DeviceBuffer<float>& z) const {
    DeviceBuffer<uint8_t> wasEmpty = flags(), known = flags(), nextKnown = flags();
    emptyMaskKernel<<<blocks(), kBlock>>>(z.data(), cells_, wasEmpty.data());
    CUDA_CHECK(cudaGetLastError());
    flip(wasEmpty, known);
    DeviceBuffer<float> next = grid();
    DeviceBuffer<unsigned> filledAny(1);
    for (;;) {
      CUDA_CHECK(cudaMemset(filledAny.data(), 0, sizeof(unsigned)));
      ringKernel<<<blocks(), kBlock>>>({z.data(), known.data(), next.data(), nextKnown.data(),
                                        width_, height_, filledAny.data()});
      CUDA_CHECK(cudaGetLastError());
      unsigned filled = 0;
      CUDA_CHECK(cudaMemcpy(&filled, filledAny.data(), sizeof filled, cudaMemcpyDeviceToHost));
      if (!filled) break;
      std::swap(z, next);
      std::swap(known, nextKnown);
    }
    if (!anySet(wasEmpty)) return;
    for (int sweep = 0; sweep < process::kRelaxationSweeps; ++sweep) {
      relaxKernel<<<blocks(), kBlock>>>(z.data(), wasEmpty.data(), next.data(), width_, height_);
      CUDA_CHECK(cudaGetLastError());
      std::swap(z, next);
    }
  }

  /// process::openWithDisk on the GPU.
  DeviceBuffer<float> openWithDisk(const DeviceBuffer<float>& z, int radius) const {
    const std::vector<int64_t> halfWidths = process::diskHalfWidths(radius);
    DeviceBuffer<int64_t> halfWidthsOnDevice(halfWidths.size());
    CUDA_CHECK(cudaMemcpy(halfWidthsOnDevice.data(), halfWidths.data(),
                          halfWidths.size() * sizeof(int64_t), cudaMemcpyHostToDevice));
    DeviceBuffer<float> eroded = diskExtreme(z, radius, halfWidthsOnDevice, false);
    return diskExtreme(eroded, radius, halfWidthsOnDevice, true);
  }

  /// process::progressiveObjectCells on the GPU, into `objects` (zeroed here).
  void progressiveObjectCells(const DeviceBuffer<float>& z, double cellSize, double slope,
                              int maxRadius, DeviceBuffer<uint8_t>& objects) const {
    CUDA_CHECK(cudaMemset(objects.data(), 0, cells_));
    DeviceBuffer<float> last = grid();
    CUDA_CHECK(cudaMemcpy(last.data(), z.data(), cells_ * sizeof(float), cudaMemcpyDeviceToDevice));
    for (int radius = 1; radius <= maxRadius; ++radius) {
      DeviceBuffer<float> opened = openWithDisk(last, radius);
      const double drop = slope * double(radius) * cellSize;
      dropKernel<<<blocks(), kBlock>>>(last.data(), opened.data(), cells_, drop, objects.data());
      CUDA_CHECK(cudaGetLastError());
      last = std::move(opened);
    }
  }

  /// `minimum` without the `removed` cells, filled again.
  DeviceBuffer<float> withoutCells(const DeviceBuffer<float>& minimum,
                                   const DeviceBuffer<uint8_t>& removed) const {
    DeviceBuffer<float> result = grid();
    withoutCellsKernel<<<blocks(), kBlock>>>(minimum.data(), removed.data(), cells_, result.data());
    CUDA_CHECK(cudaGetLastError());
    fillEmptyCells(result);
    return result;
  }

 private:
  /// known = 1 where `empty` is 0 and 0 where it is 1.
  void flip(const DeviceBuffer<uint8_t>& empty, DeviceBuffer<uint8_t>& known) const {
    notKernel<<<blocks(), kBlock>>>(empty.data(), cells_, known.data());
    CUDA_CHECK(cudaGetLastError());
  }

  bool anySet(const DeviceBuffer<uint8_t>& flags) const {
    DeviceBuffer<unsigned> any(1);
    CUDA_CHECK(cudaMemset(any.data(), 0, sizeof(unsigned)));
    anyKernel<<<blocks(), kBlock>>>(flags.data(), cells_, any.data());
    CUDA_CHECK(cudaGetLastError());
    unsigned found = 0;
    CUDA_CHECK(cudaMemcpy(&found, any.data(), sizeof found, cudaMemcpyDeviceToHost));
    return found != 0;
  }

  DeviceBuffer<float> diskExtreme(const DeviceBuffer<float>& z, int radius,
                                  const DeviceBuffer<int64_t>& halfWidths, bool takeMax) const {
    // Levels 1 .. K of the sparse table, K the largest with 2^K <= the widest run (2r + 1).
    int levelsNeeded = 0;
    while ((int64_t(1) << (levelsNeeded + 1)) <= 2 * int64_t(radius) + 1) ++levelsNeeded;
    std::vector<DeviceBuffer<float>> levels;
    std::vector<const float*> pointers{z.data()};
    for (int k = 1; k <= levelsNeeded; ++k) {
      levels.push_back(grid());
      sparseLevelKernel<<<blocks(), kBlock>>>(pointers.back(), levels.back().data(), width_,
                                              height_, int64_t(1) << (k - 1), takeMax);
      CUDA_CHECK(cudaGetLastError());
      pointers.push_back(levels.back().data());
    }
    DeviceBuffer<const float*> pointersOnDevice(pointers.size());
    CUDA_CHECK(cudaMemcpy(pointersOnDevice.data(), pointers.data(),
                          pointers.size() * sizeof(const float*), cudaMemcpyHostToDevice));
    DeviceBuffer<float> out = grid();
    diskKernel<<<blocks(), kBlock>>>(
        {pointersOnDevice.data(), halfWidths.data(), radius, width_, height_, takeMax, out.data()});
    CUDA_CHECK(cudaGetLastError());
    return out;
  }

  int64_t width_, height_;
  uint64_t cells_;
};

}  // namespace

void findGroundOnDevice(const DevicePoints& points, const uint8_t* excluded,
                        const GroundFilterSettings& settings, const GroundGridWindow* window,
                        uint8_t* ground) {
  checkGroundFilterSettings(settings);
  if (points.count == 0) throw InputError("ground filter: no points to classify");
  CUDA_CHECK(cudaMemset(ground, 0, points.count));
  const DeviceExtent found = extentOnDevice(points, excluded);
  process::GroundExtent extent;
  extent.minX = found.low[0], extent.minY = found.low[1], extent.minZ = found.low[2];
  extent.maxX = found.high[0], extent.maxY = found.high[1];
  if (extent.empty()) return;  // every point excluded: none is ground
  const process::GroundGridPlan plan = process::planGroundGrid(extent, settings, window);
  const GridFrame& frame = plan.frame;
  const DeviceGrids grids(frame.width, frame.height);

  // 1. The minimum surface.
  DeviceBuffer<float> minimum = grids.grid();
  {
    DeviceBuffer<unsigned> lowest(grids.cells());
    CUDA_CHECK(cudaMemset(lowest.data(), 0xff, grids.cells() * sizeof(unsigned)));
    minimumKernel<<<blocksFor(points.count), kBlock>>>(
        {points.xyz, points.count, excluded, frame, plan.baseHeight, lowest.data()});
    CUDA_CHECK(cudaGetLastError());
    minimumToFloatKernel<<<grids.blocks(), kBlock>>>(lowest.data(), grids.cells(), minimum.data());
    CUDA_CHECK(cudaGetLastError());
  }
  DeviceBuffer<uint8_t> removed = grids.flags();
  emptyMaskKernel<<<grids.blocks(), kBlock>>>(minimum.data(), grids.cells(), removed.data());
  CUDA_CHECK(cudaGetLastError());
  DeviceBuffer<float> filled = grids.grid();
  CUDA_CHECK(cudaMemcpy(filled.data(), minimum.data(), grids.cells() * sizeof(float),
                        cudaMemcpyDeviceToDevice));
  grids.fillEmptyCells(filled);

  // 2. Low outliers: peaks of the negated surface one cell wide.
  DeviceBuffer<uint8_t> marked = grids.flags();
  {
    DeviceBuffer<float> negated = grids.grid();
    negateKernel<<<grids.blocks(), kBlock>>>(filled.data(), grids.cells(), negated.data());
    CUDA_CHECK(cudaGetLastError());
    filled = DeviceBuffer<float>();
    grids.progressiveObjectCells(negated, settings.cell, process::kLowOutlierSlope, 1, marked);
  }
  orKernel<<<grids.blocks(), kBlock>>>(removed.data(), marked.data(), grids.cells());
  CUDA_CHECK(cudaGetLastError());

  // 3. Objects: the progressive opening up to the window's radius in cells.
  {
    const DeviceBuffer<float> withoutOutliers = grids.withoutCells(minimum, removed);
    grids.progressiveObjectCells(withoutOutliers, settings.cell, settings.slope, plan.maxRadius,
                                 marked);
  }

  // 4. The provisional ground surface and its slope.
  orKernel<<<grids.blocks(), kBlock>>>(removed.data(), marked.data(), grids.cells());
  CUDA_CHECK(cudaGetLastError());
  const DeviceBuffer<float> surface = grids.withoutCells(minimum, removed);
  DeviceBuffer<float> slope = grids.grid();
  slopeKernel<<<grids.blocks(), kBlock>>>(surface.data(), frame.width, frame.height, settings.cell,
                                          slope.data());
  CUDA_CHECK(cudaGetLastError());

  // 5. Each point against the surface.
  labelKernel<<<blocksFor(points.count), kBlock>>>(
      {points.xyz, points.count, excluded, surface.data(), slope.data(), frame, plan.baseHeight,
       settings.threshold, settings.scalar, ground});
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
}

}  // namespace pcv::process_cuda
