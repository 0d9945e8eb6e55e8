/// @brief A point cloud in host memory: a double-precision origin and float offsets from it, so
/// georeferenced coordinates (UTM: 500000, 5000000) keep their centimetres.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "pcv/core/bounds.hpp"
#include "pcv/core/point.hpp"
#include "pcv/core/uninitialized_vector.hpp"

namespace pcv {

/// Per-point scalar values a file carried besides position and colour (intensity,
/// classification, return number, GPS time ...), one value per point, kept for colouring.
struct ScalarAttribute {
  std::string name;
  UninitializedVector<float> values;  ///< resize() leaves them for the reader to fill
};

struct PointCloud {
  glm::dvec3 origin{0.0};             ///< world position that point offsets are relative to
  UninitializedVector<Point> points;  ///< offsets from origin, and RGBA colour
  bool hasColor = false;              ///< true when colours came from the data, not a colour map
  std::vector<ScalarAttribute> attributes;

  uint64_t size() const { return points.size(); }
  /// Bounds of the offsets (computed in parallel, not trusted from a file header); NaN/inf
  /// points skipped.
  Box3f localBounds() const;
  /// Bounds in world coordinates.
  Box3d worldBounds() const;
  const ScalarAttribute* findAttribute(const std::string& name) const;
};

/// Rounds a world position to whole units: the origin of a cloud whose points lie near it, so
/// UTM coordinates (500000, 5000000) become small float offsets that keep their centimetres.
/// Whole units keep the origin exact in any decimal notation and cost nothing in precision: the
/// remainder below one unit is well inside a float's 24 bits.
glm::dvec3 originNear(const glm::dvec3& world);

}  // namespace pcv
