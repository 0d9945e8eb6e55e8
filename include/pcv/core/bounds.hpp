/// @brief Axis-aligned bounding boxes, in float (offsets from an origin) and double (world).
#pragma once

#include <algorithm>
#include <limits>

#include <glm/glm.hpp>

namespace pcv {

template <typename Vec>
struct BasicBox {
  using Scalar = typename Vec::value_type;
  Vec min{std::numeric_limits<Scalar>::max()};
  Vec max{std::numeric_limits<Scalar>::lowest()};

  bool empty() const { return min.x > max.x || min.y > max.y || min.z > max.z; }
  void extend(const Vec& p) {
    min = glm::min(min, p);
    max = glm::max(max, p);
  }
  void extend(const BasicBox& other) {
    if (other.empty()) return;
    extend(other.min);
    extend(other.max);
  }
  /// Whether the boxes share a point; closed boxes, so touching counts.
  bool overlaps(const BasicBox& other) const {
    return min.x <= other.max.x && other.min.x <= max.x && min.y <= other.max.y &&
           other.min.y <= max.y && min.z <= other.max.z && other.min.z <= max.z;
  }
  Vec center() const { return (min + max) * Scalar(0.5); }
  Vec size() const { return empty() ? Vec(0) : max - min; }
  Scalar diagonal() const { return glm::length(size()); }
};

using Box3f = BasicBox<glm::vec3>;
using Box3d = BasicBox<glm::dvec3>;

}  // namespace pcv
