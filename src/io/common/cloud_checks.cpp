#include "cloud_checks.hpp"

#include <atomic>
#include <cmath>

#include "pcv/core/parallel.hpp"

namespace pcv::io {
namespace {

bool isFinite(const Point& p) {
  return std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z);
}

}  // namespace

uint64_t dropNonFinitePoints(PointCloud& cloud) {
  std::atomic<uint64_t> bad{0};
  parallelFor(cloud.points.size(), [&](uint64_t begin, uint64_t end) {
    uint64_t local = 0;
    for (uint64_t i = begin; i < end; ++i) local += !isFinite(cloud.points[i]);
    bad += local;
  });
  if (bad == 0) return 0;
  uint64_t kept = 0;
  for (uint64_t i = 0; i < cloud.points.size(); ++i) {
    if (!isFinite(cloud.points[i])) continue;
    cloud.points[kept] = cloud.points[i];
    for (auto& attribute : cloud.attributes) attribute.moveValue(kept, i);
    ++kept;
  }
  cloud.points.resize(kept);
  for (auto& attribute : cloud.attributes) attribute.resize(kept);
  return bad;
}

bool colorsAreAllBlack(const PointCloud& cloud) {
  if (!cloud.hasColor || cloud.points.empty()) return false;
  std::atomic<bool> colored{false};
  parallelFor(cloud.points.size(), [&](uint64_t begin, uint64_t end) {
    for (uint64_t i = begin; i < end && !colored.load(std::memory_order_relaxed); ++i) {
      if ((cloud.points[i].rgba & 0x00ffffffu) != 0) colored = true;
    }
  });
  return !colored;
}

}  // namespace pcv::io
