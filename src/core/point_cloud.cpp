#include "pcv/core/point_cloud.hpp"

#include <cmath>
#include <mutex>

#include "pcv/core/parallel.hpp"

namespace pcv {

void ScalarAttribute::resize(uint64_t count) {
  if (wide()) {
    wideValues.resize(count);
  } else {
    values.resize(count);
  }
}

void ScalarAttribute::resize(uint64_t count, double fill) {
  if (wide()) {
    wideValues.resize(count, fill);
  } else {
    values.resize(count, float(fill));
  }
}

void ScalarAttribute::append(const ScalarAttribute& other, uint64_t begin, uint64_t end) {
  if (wide() && other.wide()) {
    wideValues.insert(wideValues.end(), other.wideValues.begin() + begin,
                      other.wideValues.begin() + end);
  } else if (!wide() && !other.wide()) {
    values.insert(values.end(), other.values.begin() + begin, other.values.begin() + end);
  } else {
    const uint64_t at = size();
    resize(at + (end - begin));
    for (uint64_t i = begin; i < end; ++i) setValue(at + (i - begin), other.value(i));
  }
}

void ScalarAttribute::push_back(double v) {
  if (wide()) {
    wideValues.push_back(v);
  } else {
    values.push_back(float(v));
  }
}

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
