#include "pcv/core/point_cloud.hpp"

#include <cmath>
#include <mutex>

#include "pcv/core/parallel.hpp"

namespace pcv {

glm::dvec3 originNear(const glm::dvec3& world) {
  return glm::dvec3(std::round(world.x), std::round(world.y), std::round(world.z));
}

Box3f PointCloud::localBounds() const {
  // Per-chunk boxes merged under a lock: one pass over the points, on every core.
  Box3f box;
  std::mutex boxMutex;
  parallelFor(points.size(), [&](uint64_t begin, uint64_t end) {
    Box3f chunk;
    for (uint64_t i = begin; i < end; ++i) {
      const Point& p = points[i];
      if (std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z)) {
        chunk.extend(glm::vec3(p.x, p.y, p.z));
      }
    }
    std::lock_guard lock(boxMutex);
    box.extend(chunk);
  });
  return box;
}

Box3d PointCloud::worldBounds() const {
  const Box3f local = localBounds();
  Box3d world;
  if (!local.empty()) {
    world.extend(origin + glm::dvec3(local.min));
    world.extend(origin + glm::dvec3(local.max));
  }
  return world;
}

const ScalarAttribute* PointCloud::findAttribute(const std::string& name) const {
  for (const auto& attribute : attributes) {
    if (attribute.name == name) return &attribute;
  }
  return nullptr;
}

}  // namespace pcv
