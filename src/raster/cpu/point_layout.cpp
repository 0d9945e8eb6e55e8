#include "point_layout.hpp"

#include <algorithm>
#include <cmath>
#include <mutex>

#include "pcv/core/float_math.hpp"
#include "pcv/core/host_memory.hpp"
#include "pcv/core/parallel.hpp"
#include "pcv/core/uninitialized_vector.hpp"
#include "radix_order.hpp"
#include "shared/morton.hpp"

namespace pcv {
namespace {

struct FiniteBounds {
  float min[3] = {INFINITY, INFINITY, INFINITY};
  float max[3] = {-INFINITY, -INFINITY, -INFINITY};

  void add(const Point& p) {
    if (!(isFiniteFloat(p.x) && isFiniteFloat(p.y) && isFiniteFloat(p.z))) return;
    const float v[3] = {p.x, p.y, p.z};
    for (int axis = 0; axis < 3; ++axis) {
      min[axis] = std::min(min[axis], v[axis]);
      max[axis] = std::max(max[axis], v[axis]);
    }
  }
  void add(const FiniteBounds& other) {
    for (int axis = 0; axis < 3; ++axis) {
      min[axis] = std::min(min[axis], other.min[axis]);
      max[axis] = std::max(max[axis], other.max[axis]);
    }
  }
};

FiniteBounds boundsOf(std::span<const Point> points) {
  FiniteBounds total;
  std::mutex mutex;
  parallelFor(points.size(), [&](uint64_t begin, uint64_t end) {
    FiniteBounds local;
    for (uint64_t i = begin; i < end; ++i) local.add(points[i]);
    std::lock_guard lock(mutex);
    total.add(local);
  });
  return total;
}

/// Lays out the batches of `count` points in Morton order into the pool (as
/// buildCompactPoints does); pointsOfBatch(first, size, scratch) gives a batch's points, the
/// sorted points from `first` on: in place, or gathered into `scratch` or the pool.
template <typename PointsOfBatch>
void buildBatches(uint64_t count, HostPointPool& pool, uint64_t pointFirst, uint64_t batchFirst,
                  const PointsOfBatch& pointsOfBatch) {
  const uint64_t batchCount = (count + kBatchSize - 1) / kBatchSize;
  parallelFor(
      batchCount,
      [&](uint64_t beginBatch, uint64_t endBatch) {
        std::vector<Point> scratch;
        for (uint64_t b = beginBatch; b < endBatch; ++b) {
          const uint64_t first = b * kBatchSize;
          const uint32_t size = uint32_t(std::min<uint64_t>(kBatchSize, count - first));
          const Point* sorted = pointsOfBatch(first, size, scratch);
          FiniteBounds box;
          for (uint32_t i = 0; i < size; ++i) box.add(sorted[i]);
          const Batch batch = makeBatch(box.min, box.max, uint32_t(pointFirst + first), size);
          pool.batches[batchFirst + b] = batch;
          for (uint32_t i = 0; i < size; ++i) {
            const Point& p = sorted[i];
            pool.positions[pointFirst + first + i] = packQuantized(batch, p.x, p.y, p.z);
            pool.colors[pointFirst + first + i] = p.rgba;
          }
        }
      },
      8);
}

/// spreadBits3 of every byte value: bit i of the byte moves to bit 3i.
struct ByteSpreads {
  uint64_t of[256] = {};
  constexpr ByteSpreads() {
    for (uint32_t value = 0; value < 256; ++value) {
      for (uint32_t bit = 0; bit < 8; ++bit) of[value] |= uint64_t((value >> bit) & 1) << (3 * bit);
    }
  }
};
constexpr ByteSpreads kByteSpreads;

/// spreadBits3 of a 21-bit cell by three table lookups instead of five shift-and-mask steps per
/// axis (the codes were a quarter of a node's layout on the host).
uint64_t spreadCell(uint32_t cell) {
  return kByteSpreads.of[cell & 255] | kByteSpreads.of[(cell >> 8) & 255] << 24 |
         kByteSpreads.of[cell >> 16] << 48;
}

/// mortonOrder, with `indexScratch` (as long as `points`, or empty) for the sort's indices.
void mortonOrder(std::span<const Point> points, std::span<uint32_t> order,
                 std::span<uint32_t> indexScratch) {
  const FiniteBounds bounds = boundsOf(points);
  const MortonGrid grid = makeMortonGrid(bounds.min, bounds.max);
  UninitializedVector<uint64_t> codes(points.size());
  parallelFor(points.size(), [&](uint64_t begin, uint64_t end) {
    for (uint64_t i = begin; i < end; ++i) codes[i] = hostMortonCode(grid, points[i]);
  });
  stableRadixOrder(codes, order, indexScratch);
}

}  // namespace

uint64_t hostMortonCode(const MortonGrid& grid, const Point& p) {
  return spreadCell(mortonCell(grid, 0, p.x)) | spreadCell(mortonCell(grid, 1, p.y)) << 1 |
         spreadCell(mortonCell(grid, 2, p.z)) << 2;
}

void mortonOrder(std::span<const Point> points, std::span<uint32_t> order) {
  mortonOrder(points, order, {});
}

std::vector<uint32_t> mortonOrder(std::span<const Point> points) {
  std::vector<uint32_t> order(points.size());
  mortonOrder(points, order);
  return order;
}

std::span<const Point> hostSlice(const PointProducer& source, uint64_t first, uint64_t count,
                                 std::vector<Point>& scratch) {
  const std::span<const Point> all = source.hostPoints();
  if (!all.empty()) return all.subspan(first, count);
  requireHostMemory("a slice of generated points", count, sizeof(Point));
  scratch.resize(count);
  source.produce(first, scratch);
  return scratch;
}

void buildCompactPoints(std::span<const Point> sorted, HostPointPool& pool, uint64_t pointFirst,
                        uint64_t batchFirst) {
  buildBatches(
      sorted.size(), pool, pointFirst, batchFirst,
      [&](uint64_t first, uint32_t, std::vector<Point>&) { return sorted.data() + first; });
}

void layOutSlice(std::span<const Point> slice, HostPointPool& pool, uint64_t pointFirst,
                 uint64_t batchFirst, bool sorted, bool keepPoints, uint32_t* order) {
  const uint64_t count = slice.size();
  if (!sorted) {
    copyInParallel(pool.points.data() + pointFirst, slice.data(), count * sizeof(Point));
    return;
  }
  // The sort holds 8-byte codes and a second buffer of them. The slice's slots of the pool,
  // which the layout fills last, lend it the rest, so their pages are touched once: the positions
  // hold the sort's second index buffer, and the colours the order unless the caller takes it
  // (a batch's order is read, as its points are gathered, before its colours are written). The
  // points are gathered batch by batch into the kept points or a batch-sized buffer, never into
  // a sorted copy of the slice.
  requireHostMemory("the Morton sort of a slice", count, 16);
  const std::span<uint32_t> mortonSorted(order ? order : pool.colors.data() + pointFirst, count);
  mortonOrder(slice, mortonSorted, {pool.positions.data() + pointFirst, count});
  Point* keptPoints = keepPoints ? pool.points.data() + pointFirst : nullptr;
  buildBatches(count, pool, pointFirst, batchFirst,
               [&](uint64_t first, uint32_t size, std::vector<Point>& scratch) {
                 Point* gathered = keptPoints ? keptPoints + first : nullptr;
                 if (!gathered) {
                   scratch.resize(kBatchSize);
                   gathered = scratch.data();
                 }
                 for (uint32_t i = 0; i < size; ++i) gathered[i] = slice[mortonSorted[first + i]];
                 return static_cast<const Point*>(gathered);
               });
}

}  // namespace pcv
