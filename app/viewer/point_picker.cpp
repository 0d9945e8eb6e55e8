#include "viewer/point_picker.hpp"

#include <cstdlib>
#include <limits>
#include <mutex>

#include "pcv/core/parallel.hpp"

namespace pcv::app {

std::optional<uint64_t> pickPointIndex(std::span<const Point> points, const ViewTransform& view,
                                       int xPx, int yPx, int radiusPx) {
  std::mutex bestMutex;
  float bestDepth = std::numeric_limits<float>::infinity();
  uint64_t bestIndex = 0;
  parallelFor(points.size(), [&](uint64_t begin, uint64_t end) {
    float chunkDepth = std::numeric_limits<float>::infinity();
    uint64_t chunkIndex = 0;
    for (uint64_t i = begin; i < end; ++i) {
      PixelHit hit;
      if (!projectPoint(view, points[i].x, points[i].y, points[i].z, hit)) continue;
      if (std::abs(hit.x - xPx) > radiusPx || std::abs(hit.y - yPx) > radiusPx) continue;
      if (hit.viewDepth < chunkDepth) {
        chunkDepth = hit.viewDepth;
        chunkIndex = i;
      }
    }
    std::lock_guard lock(bestMutex);
    if (chunkDepth < bestDepth || (chunkDepth == bestDepth && chunkIndex < bestIndex)) {
      bestDepth = chunkDepth;
      bestIndex = chunkIndex;
    }
  });
  if (bestDepth == std::numeric_limits<float>::infinity()) return std::nullopt;
  return bestIndex;
}

std::optional<glm::dvec3> pickPoint(std::span<const Point> points, const ViewTransform& view,
                                    int xPx, int yPx, int radiusPx) {
  const std::optional<uint64_t> index = pickPointIndex(points, view, xPx, yPx, radiusPx);
  if (!index) return std::nullopt;
  const Point& p = points[*index];
  return glm::dvec3(p.x, p.y, p.z);
}

}  // namespace pcv::app
