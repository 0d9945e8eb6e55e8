/// @brief Terrain with known classes for the classification tests: a sloped plane with a hill
/// (ground), boxes standing on it (buildings), tree crowns above it and isolated points far
/// above and below it (noise), in a fixed random order from a seed.
#pragma once

#include <cmath>
#include <cstdint>
#include <algorithm>
#include <random>
#include <vector>

#include <glm/vec3.hpp>

namespace pcv::test {

enum class Truth : uint8_t { Ground, Building, Vegetation, Noise };

struct SyntheticTerrain {
  std::vector<glm::dvec3> points;
  std::vector<Truth> truth;  ///< one per point
};

/// The ground's height at (x, y): a plane rising 4 % along x and 2 % along y, and a hill 12 m
/// high and about 50 m across (slopes up to 0.33, steeper than the filter's slope threshold).
inline double terrainHeight(double x, double y) {
  const double dx = x - 120.0, dy = y - 80.0;
  return 0.04 * x + 0.02 * y + 12.0 * std::exp(-(dx * dx + dy * dy) / (2.0 * 25.0 * 25.0));
}

/// `side` metres square from (origin.x, origin.y), 2 points per square metre, heights above
/// origin.z.
inline SyntheticTerrain makeSyntheticTerrain(uint32_t seed, glm::dvec3 origin = {0, 0, 0},
                                             double side = 200.0) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  SyntheticTerrain terrain;
  const auto add = [&](double x, double y, double z, Truth truth) {
    terrain.points.push_back(origin + glm::dvec3(x, y, z));
    terrain.truth.push_back(truth);
  };
  struct Building {
    double x0, y0, x1, y1, height;
  };
  const std::vector<Building> buildings = {{20, 20, 40, 35, 8},
                                           {60, 140, 85, 160, 12},
                                           {150, 30, 162, 52, 6},
                                           {100, 170, 124, 190, 10},
                                           {170, 150, 190, 168, 15},
                                           // 30 x 40 m: as wide as the default window (18 m radius) removes, along x only
                                           {45, 55, 75, 95, 10}};
  const auto inBuilding = [&](double x, double y) -> const Building* {
    for (const Building& b : buildings) {
      if (x >= b.x0 && x <= b.x1 && y >= b.y0 && y <= b.y1) return &b;
    }
    return nullptr;
  };
  const uint64_t count = uint64_t(2.0 * side * side);
  for (uint64_t i = 0; i < count; ++i) {
    const double x = unit(random) * side, y = unit(random) * side;
    const double ground = terrainHeight(x, y);
    if (const Building* building = inBuilding(x, y)) {
      // A flat roof over the highest ground of the footprint.
      const double base = terrainHeight(building->x1, building->y1);
      add(x, y, base + building->height + 0.05 * unit(random), Truth::Building);
    } else {
      add(x, y, ground + 0.05 * (unit(random) - 0.5), Truth::Ground);
    }
  }
  // Trees: crowns of points 3 to 15 m above the ground, 4 m across; the ground below them keeps
  // its points (the laser passes through).
  for (int tree = 0; tree < 60; ++tree) {
    const double cx = 5.0 + unit(random) * (side - 10.0), cy = 5.0 + unit(random) * (side - 10.0);
    if (inBuilding(cx, cy)) continue;
    const double top = 3.0 + unit(random) * 12.0;
    for (int i = 0; i < 40; ++i) {
      const double angle = unit(random) * 6.283185307179586, r = 2.0 * std::sqrt(unit(random));
      const double x = cx + r * std::cos(angle), y = cy + r * std::sin(angle);
      if (inBuilding(x, y)) continue;
      add(x, y, terrainHeight(x, y) + top - 2.0 * unit(random) * (1.0 - r / 2.0),
          Truth::Vegetation);
    }
  }
  // Noise: birds 40 to 80 m up, multipath 20 to 40 m below.
  for (int i = 0; i < 24; ++i) {
    const double x = 10.0 + unit(random) * (side - 20.0), y = 10.0 + unit(random) * (side - 20.0);
    const double offset = i % 2 ? 40.0 + 40.0 * unit(random) : -20.0 - 20.0 * unit(random);
    add(x, y, terrainHeight(x, y) + offset, Truth::Noise);
  }
  // One fixed shuffle, so no class comes in one run.
  std::vector<size_t> order(terrain.points.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), random);
  SyntheticTerrain shuffled;
  for (size_t i : order) {
    shuffled.points.push_back(terrain.points[i]);
    shuffled.truth.push_back(terrain.truth[i]);
  }
  return shuffled;
}

}  // namespace pcv::test
