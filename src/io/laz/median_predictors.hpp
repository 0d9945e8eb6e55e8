/// @brief The coordinate-difference predictors of the LAZ point items. Their exact update rule is
/// part of the bitstream, so MedianOfFive is not the median of the last five values but LAZ's
/// cheaper running estimate, reproduced exactly.
#pragma once

#include <cstdint>

#include "pcv/core/host_device.hpp"

namespace pcv::laz {

/// Five values kept sorted. A new value replaces the largest while the estimate leans high, the
/// smallest while it leans low; it leans the other way once a value lands on the other side of
/// the middle. The prediction is the middle value.
struct MedianOfFive {
  int32_t sorted[5];
  bool dropHighest;

  PCV_HOST_DEVICE void reset() {
    for (auto& v : sorted) v = 0;
    dropHighest = true;
  }

  PCV_HOST_DEVICE int32_t median() const { return sorted[2]; }

  PCV_HOST_DEVICE void add(int32_t value) {
    const int32_t middle = sorted[2];
    if (dropHighest) {
      // Insert into sorted[0..3] after equal values; the old largest falls off.
      int i = 4;
      while (i > 0 && sorted[i - 1] > value) {
        sorted[i] = sorted[i - 1];
        --i;
      }
      sorted[i] = value;
      if (!(value < middle)) dropHighest = false;
    } else {
      // Insert into sorted[1..4] before equal values; the old smallest falls off.
      int i = 0;
      while (i < 4 && sorted[i + 1] < value) {
        sorted[i] = sorted[i + 1];
        ++i;
      }
      sorted[i] = value;
      if (!(middle < value)) dropHighest = true;
    }
  }
};

/// Median of the last three differences (the version 1 predictor).
PCV_HOST_DEVICE inline int32_t medianOfThree(const int32_t v[3]) {
  const int32_t low = v[0] < v[1] ? v[0] : v[1];
  const int32_t high = v[0] < v[1] ? v[1] : v[0];
  return v[2] < low ? low : (v[2] > high ? high : v[2]);
}

}  // namespace pcv::laz
