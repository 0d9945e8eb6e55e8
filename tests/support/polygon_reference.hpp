/// @brief The tests' own point-in-polygon, in doubles by the even-odd rule: the reference that
/// export and clipping results are checked against, written apart from pcv's implementations.
#pragma once

#include <cstddef>
#include <vector>

#include <glm/glm.hpp>

namespace pcv::test {

/// Whether (x, y) lies inside `polygon` (its corners in order, closed back to the first).
inline bool insidePolygon(const std::vector<glm::dvec2>& polygon, double x, double y) {
  bool inside = false;
  for (size_t i = 0, j = polygon.size() - 1; i < polygon.size(); j = i++) {
    const glm::dvec2 a = polygon[i], b = polygon[j];
    if ((a.y > y) != (b.y > y) && x < (b.x - a.x) * (y - a.y) / (b.y - a.y) + a.x) inside = !inside;
  }
  return inside;
}

}  // namespace pcv::test
