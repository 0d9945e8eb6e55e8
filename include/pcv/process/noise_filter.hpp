/// @brief Isolated points (birds, multipath, sensor noise) by a neighbour count: a point with
/// fewer than a few other points within a radius around it is noise (LAS class 7).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <glm/vec3.hpp>

namespace pcv {

/// The defaults suit airborne data of 1 to 50 points per square metre: 2 m holds about a dozen
/// ground points at the sparsest, so only points with nothing near them are noise.
struct NoiseFilterSettings {
  double radius = 2.0;         ///< search radius, a sphere (map units, > 0)
  uint32_t minNeighbours = 2;  ///< fewer other points than this within `radius`: noise (>= 1)
};

/// Throws InputError naming the parameter and what it must be.
void checkNoiseFilterSettings(const NoiseFilterSettings& settings);

/// 1 for each isolated point of `points` (world coordinates), 0 for the rest. Exact (every
/// neighbour within the radius counted, up to minNeighbours) and independent of the thread count
/// and of the points' order. Throws InputError for bad settings, no points, or a radius so small
/// that the points' extent spans more than 2^21 radii on an axis.
std::vector<uint8_t> noisePoints(std::span<const glm::dvec3> points,
                                 const NoiseFilterSettings& settings = {});

}  // namespace pcv
