/// @brief Finds the point under the cursor for double-click focus, with the renderer's own
/// projection (projectPoint), so the picked point is the one drawn there. Runs on the CPU over a
/// host copy of the points: a pick is rare, and the backends expose no depth buffer.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include <glm/glm.hpp>

#include "pcv/core/point.hpp"
#include "pcv/raster/projection.hpp"

namespace pcv::app {

/// The closest point (smallest view depth) whose pixel lies within `radiusPx` (a square) of
/// pixel (x, y), row 0 at the bottom; its position relative to the cloud's origin. Empty when no
/// point lands there.
std::optional<glm::dvec3> pickPoint(std::span<const Point> points, const ViewTransform& view,
                                    int xPx, int yPx, int radiusPx = 2);
/// The same pick, as an index into `points` (to look up the point's attributes).
std::optional<uint64_t> pickPointIndex(std::span<const Point> points, const ViewTransform& view,
                                       int xPx, int yPx, int radiusPx = 2);

}  // namespace pcv::app
