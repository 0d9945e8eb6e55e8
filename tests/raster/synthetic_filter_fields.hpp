/// @brief Filter data and filters the GPU backends are compared with the CPU backend on: class
/// 1 + the cylinder a point lies on, returns and an intensity from a hash of its index.
#pragma once

#include <cstdint>

#include <vector>

#include "pcv/core/point_filter.hpp"
#include "pcv/raster/renderer.hpp"

namespace pcv::test {

/// The fields of point i of a cylinder scene of `count` points (points lie on cylinder
/// floor(i * 10 / count)).
inline FilterFields syntheticFilterFields(uint64_t i, uint64_t count) {
  uint64_t h = i * 0x9E3779B97F4A7C15ull;
  h ^= h >> 29;
  return {.classification = uint8_t(1 + i * 10 / count),
          .returnNumber = uint8_t(1 + (h >> 7) % 3),
          .numberOfReturns = uint8_t(1 + (h >> 11) % 3),
          .rangeValue = float((h >> 20) % 4096)};
}

/// Filters over those fields that keep part of every batch kind: one class, a class list,
/// last returns, an intensity range, single returns of some classes.
inline std::vector<PointFilter> comparisonFilters() {
  std::vector<PointFilter> filters(5);
  filters[0].classes = parseClassList("2", "--classes");
  filters[1].classes = parseClassList("1-5,9", "--classes");
  filters[2].returns = ReturnChoice::Last;
  filters[3].ranges = {{"intensity", 100.0, 2000.0}};
  filters[4].returns = ReturnChoice::Only;
  filters[4].classes = parseClassList("3-8", "--classes");
  return filters;
}

}  // namespace pcv::test
