/// @brief Small hand-made scenes for the quality tests, seen by the default camera (at -3,0,0
/// looking along +x, z up): planes of points facing it, so every point of a plane has the same
/// view distance (x + 3).
#pragma once

#include <cmath>
#include <vector>

#include "pcv/core/point.hpp"

namespace pcv::test {

/// A square of points at x, spanning [-half, half]^2 in y and z, `spacing` apart, leaving out
/// the points within holeRadius of (holeY, holeZ).
inline std::vector<Point> planeOfPoints(float x, float half, float spacing, uint32_t rgba,
                                        float holeY = 0.0f, float holeZ = 0.0f,
                                        float holeRadius = 0.0f) {
  std::vector<Point> points;
  const int steps = int(std::lround(2.0f * half / spacing));
  for (int i = 0; i <= steps; ++i) {
    for (int j = 0; j <= steps; ++j) {
      const float y = -half + spacing * float(i), z = -half + spacing * float(j);
      if (std::hypot(y - holeY, z - holeZ) < holeRadius) continue;
      points.push_back({x, y, z, rgba});
    }
  }
  return points;
}

}  // namespace pcv::test
