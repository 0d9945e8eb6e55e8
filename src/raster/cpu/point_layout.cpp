#include "point_layout.hpp"

#include <algorithm>
#include <cmath>
#include <mutex>

#include "pcv/core/float_math.hpp"
#include "pcv/core/host_memory.hpp"
#include "pcv/core/parallel.hpp"
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

}  // namespace

std::vector<uint32_t> mortonOrder(std::span<const Point> points) {
  const FiniteBounds bounds = boundsOf(points);
  const MortonGrid grid = makeMortonGrid(bounds.min, bounds.max);
  struct Keyed {
    uint64_t code;
    uint32_t index;
  };
  std::vector<Keyed> keys(points.size());
  parallelFor(points.size(), [&](uint64_t begin, uint64_t end) {
    for (uint64_t i = begin; i < end; ++i) {
      keys[i] = {mortonCode(grid, points[i].x, points[i].y, points[i].z), uint32_t(i)};
    }
  });
  // Ordering by (code, index) is the stable order by code.
  std::sort(keys.begin(), keys.end(), [](const Keyed& a, const Keyed& b) {
    return a.code != b.code ? a.code < b.code : a.index < b.index;
  });
  std::vector<uint32_t> order(points.size());
  parallelFor(points.size(), [&](uint64_t begin, uint64_t end) {
    for (uint64_t i = begin; i < end; ++i) order[i] = keys[i].index;
  });
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
  const uint64_t count = sorted.size();
  const uint64_t batchCount = (count + kBatchSize - 1) / kBatchSize;
  parallelFor(
      batchCount,
      [&](uint64_t beginBatch, uint64_t endBatch) {
        for (uint64_t b = beginBatch; b < endBatch; ++b) {
          const uint64_t first = b * kBatchSize;
          const uint32_t size = uint32_t(std::min<uint64_t>(kBatchSize, count - first));
          FiniteBounds box;
          for (uint32_t i = 0; i < size; ++i) box.add(sorted[first + i]);
          const Batch batch = makeBatch(box.min, box.max, uint32_t(pointFirst + first), size);
          pool.batches[batchFirst + b] = batch;
          for (uint32_t i = 0; i < size; ++i) {
            const Point& p = sorted[first + i];
            pool.positions[pointFirst + first + i] = packQuantized(batch, p.x, p.y, p.z);
            pool.colors[pointFirst + first + i] = p.rgba;
          }
        }
      },
      8);
}

void layOutSlice(std::span<const Point> slice, HostPointPool& pool, uint64_t pointFirst,
                 uint64_t batchFirst, bool sorted, bool keepPoints, uint32_t* order) {
  const uint64_t count = slice.size();
  if (!sorted) {
    std::copy(slice.begin(), slice.end(), pool.points.begin() + pointFirst);
    return;
  }
  // Sorting holds 16-byte keys and, without kept points, a sorted copy of the slice.
  requireHostMemory("the Morton sort of a slice", count, keepPoints ? 16 : 32);
  const std::vector<uint32_t> mortonSorted = mortonOrder(slice);
  if (order) std::copy(mortonSorted.begin(), mortonSorted.end(), order);
  std::vector<Point> sortedCopy;
  Point* sortedPoints = keepPoints ? pool.points.data() + pointFirst : nullptr;
  if (!keepPoints) {
    sortedCopy.resize(count);
    sortedPoints = sortedCopy.data();
  }
  parallelFor(count, [&](uint64_t b, uint64_t e) {
    for (uint64_t i = b; i < e; ++i) sortedPoints[i] = slice[mortonSorted[i]];
  });
  buildCompactPoints({sortedPoints, count}, pool, pointFirst, batchFirst);
}

}  // namespace pcv
