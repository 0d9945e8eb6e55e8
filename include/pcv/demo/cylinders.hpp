/// @brief The seed's demo: random cylinders covered with coloured points. Deterministic for
/// a seed, and the same bits on the CPU and the GPU (see cylinder_point.hpp).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "pcv/core/bounds.hpp"
#include "pcv/core/point.hpp"

namespace pcv {

struct Cylinder {
  float center[3];  ///< in [-1, 1]^3
  float axisX[3];   ///< orthonormal frame; the points' circle spans axisX/axisY
  float axisY[3];
  float axisZ[3];    ///< the cylinder's axis, axisX x axisY
  float radius;      ///< 0.1 .. 0.2
  float halfHeight;  ///< 0.5 .. 1.0
  float color[3];    ///< base colour, each channel 0.3 .. 1.0
};

/// The cylinders drawn from a seed: every point of the demo lies on one of them.
struct CylinderSet {
  uint64_t seed = 1;
  std::vector<Cylinder> cylinders;
};

constexpr uint64_t kSeedPointCount = 10'000'000;  ///< the seed demo's point count
constexpr int kSeedCylinderCount = 10;

/// Draws the cylinders' parameters from `seed` (on the host; they are a few hundred bytes).
CylinderSet makeCylinderSet(uint64_t seed, int cylinderCount = kSeedCylinderCount);

/// A box every point of the set lies in: each cylinder's centre plus its radius and half
/// height on every axis (loose, cheap, and fixed before any point is made).
Box3d cylinderSetReach(const CylinderSet& set);

/// Fills `points` on the CPU with all threads; point i lies on cylinder floor(i * count / N).
void generateCylinderPoints(const CylinderSet& set, std::span<Point> points);
/// Fills `points` with points [first, first + points.size()) of a set of `totalCount`.
void generateCylinderPoints(const CylinderSet& set, uint64_t totalCount, uint64_t first,
                            std::span<Point> points);

}  // namespace pcv
