#include "elevation_grid.hpp"

#include <algorithm>
#include <cmath>

#include "classify_math.hpp"
#include "pcv/core/parallel.hpp"

namespace pcv::process {
namespace {

/// out[x] = the extreme (min, or max with `takeMax`) of in[x - w .. x + w] clipped to [0, n):
/// a monotonic queue of candidate indices, O(n) whatever w.
void slidingExtreme(const float* in, float* out, int64_t n, int64_t w, bool takeMax,
                    std::vector<int64_t>& queue) {
  queue.resize(size_t(n));
  int64_t head = 0, tail = 0, next = 0;
  const auto beaten = [&](float held, float incoming) {
    return takeMax ? held <= incoming : held >= incoming;
  };
  for (int64_t x = 0; x < n; ++x) {
    const int64_t last = std::min(n - 1, x + w);
    for (; next <= last; ++next) {
      while (tail > head && beaten(in[queue[size_t(tail - 1)]], in[next])) --tail;
      queue[size_t(tail++)] = next;
    }
    while (queue[size_t(head)] < x - w) ++head;
    out[x] = in[queue[size_t(head)]];
  }
}

/// Erosion (min) or dilation (max) with a disk of `radius` cells: the disk as one horizontal
/// run per row offset dy, of half-width floor(sqrt(r² - dy²)), each run a sliding extreme.
/// Rows are independent, so threads share them without changing the result.
ElevationGrid diskExtreme(const ElevationGrid& grid, int radius, bool takeMax) {
  ElevationGrid out{grid.width, grid.height, std::vector<float>(grid.z.size())};
  const std::vector<int64_t> halfWidths = diskHalfWidths(radius);
  parallelFor(
      uint64_t(grid.height),
      [&](uint64_t begin, uint64_t end) {
        std::vector<float> run(size_t(grid.width));
        std::vector<int64_t> queue;
        for (int64_t y = int64_t(begin); y < int64_t(end); ++y) {
          float* target = &out.z[size_t(y * grid.width)];
          std::fill(target, target + grid.width,
                    takeMax ? -std::numeric_limits<float>::infinity()
                            : std::numeric_limits<float>::infinity());
          for (int dy = -radius; dy <= radius; ++dy) {
            const int64_t row = y + dy;
            if (row < 0 || row >= grid.height) continue;
            slidingExtreme(&grid.z[size_t(row * grid.width)], run.data(), grid.width,
                           halfWidths[size_t(dy + radius)], takeMax, queue);
            for (int64_t x = 0; x < grid.width; ++x) {
              target[x] = takeMax ? std::max(target[x], run[size_t(x)])
                                  : std::min(target[x], run[size_t(x)]);
            }
          }
        }
      },
      16);
  return out;
}

}  // namespace

std::vector<int64_t> diskHalfWidths(int radius) {
  std::vector<int64_t> halfWidths;
  for (int dy = -radius; dy <= radius; ++dy) {
    halfWidths.push_back(int64_t(std::floor(std::sqrt(double(radius * radius - dy * dy)))));
  }
  return halfWidths;
}

void fillEmptyCells(ElevationGrid& grid) {
  const int64_t w = grid.width, h = grid.height;
  std::vector<uint8_t> wasEmpty(grid.z.size());
  std::vector<int64_t> ring;
  for (size_t i = 0; i < grid.z.size(); ++i) wasEmpty[i] = std::isnan(grid.z[i]) ? 1 : 0;
  // The first ring: empty cells beside a filled one.
  std::vector<uint8_t> queued(wasEmpty.size(), 0);
  const auto enqueueEmptyNeighbours = [&](int64_t x, int64_t y, std::vector<int64_t>& into) {
    for (int64_t dy = -1; dy <= 1; ++dy) {
      for (int64_t dx = -1; dx <= 1; ++dx) {
        const int64_t nx = x + dx, ny = y + dy;
        if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
        const size_t n = size_t(ny * w + nx);
        if (std::isnan(grid.z[n]) && !queued[n]) {
          queued[n] = 1;
          into.push_back(int64_t(n));
        }
      }
    }
  };
  for (int64_t y = 0; y < h; ++y) {
    for (int64_t x = 0; x < w; ++x) {
      if (!wasEmpty[size_t(y * w + x)]) enqueueEmptyNeighbours(x, y, ring);
    }
  }
  // Ring by ring: each cell of a ring is the mean of its neighbours filled before the ring, so
  // the order within a ring does not matter. A ring's values are set after all are computed.
  std::vector<float> values;
  while (!ring.empty()) {
    std::sort(ring.begin(), ring.end());
    values.assign(ring.size(), 0.0f);
    for (size_t i = 0; i < ring.size(); ++i) {
      values[i] = neighbourMean(grid.z.data(), w, h, ring[i] % w, ring[i] / w);
    }
    for (size_t i = 0; i < ring.size(); ++i) grid.z[size_t(ring[i])] = values[i];
    std::vector<int64_t> nextRing;
    for (int64_t cell : ring) enqueueEmptyNeighbours(cell % w, cell / w, nextRing);
    ring = std::move(nextRing);
  }
  // Relaxation (Jacobi: each sweep reads the last one's values only, so rows may go to any
  // thread): the filled-in cells towards the mean of their 4-neighbours.
  if (std::find(wasEmpty.begin(), wasEmpty.end(), 1) == wasEmpty.end()) return;
  std::vector<float> next(grid.z);
  for (int sweep = 0; sweep < kRelaxationSweeps; ++sweep) {
    parallelFor(
        uint64_t(h),
        [&](uint64_t begin, uint64_t end) {
          for (int64_t y = int64_t(begin); y < int64_t(end); ++y) {
            for (int64_t x = 0; x < w; ++x) {
              const size_t i = size_t(y * w + x);
              if (wasEmpty[i]) next[i] = relaxedValue(grid.z.data(), w, h, x, y);
            }
          }
        },
        16);
    std::swap(next, grid.z);
  }
}

ElevationGrid openWithDisk(const ElevationGrid& grid, int radius) {
  return diskExtreme(diskExtreme(grid, radius, false), radius, true);
}

std::vector<uint8_t> progressiveObjectCells(const ElevationGrid& grid, double cellSize,
                                            double slope, int maxRadius) {
  std::vector<uint8_t> objects(grid.z.size(), 0);
  ElevationGrid last = grid;
  for (int radius = 1; radius <= maxRadius; ++radius) {
    ElevationGrid opened = openWithDisk(last, radius);
    // The paper's height threshold grows with the window: the drop a slope of `slope` makes
    // over the window's radius.
    const double drop = slope * double(radius) * cellSize;
    for (size_t i = 0; i < objects.size(); ++i) {
      if (double(last.z[i]) - double(opened.z[i]) > drop) objects[i] = 1;
    }
    last = std::move(opened);
  }
  return objects;
}

}  // namespace pcv::process
