#include "pcv/core/point_cloud.hpp"

#include <cmath>

namespace pcv {

Box3f PointCloud::localBounds() const {
  Box3f box;
  for (const Point& p : points) {
    if (std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z)) {
      box.extend(glm::vec3(p.x, p.y, p.z));
    }
  }
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
