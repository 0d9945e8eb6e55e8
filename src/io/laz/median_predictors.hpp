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

  /// Inserts `value`. Both ways are computed and one kept, each as a sorting network of min and
  /// max: where the value lands is as good as random, and the insertion loops mispredicted about
  /// three branches per point (half of all a layered chunk's decoder mispredicted).
  PCV_HOST_DEVICE void add(int32_t value) {
    const int32_t* s = sorted;
    const int32_t v = value;
    // Leaning high: into sorted[0..3] after equal values, the old largest falls off.
    const int32_t high[5] = {lesser(s[0], v), lesser(s[1], greater(v, s[0])),
                             lesser(s[2], greater(v, s[1])), lesser(s[3], greater(v, s[2])),
                             greater(s[3], v)};
    // Leaning low: into sorted[1..4] before equal values, the old smallest falls off.
    const int32_t low[5] = {lesser(s[1], v), greater(s[1], lesser(s[2], v)),
                            greater(s[2], lesser(s[3], v)), greater(s[3], lesser(s[4], v)),
                            greater(s[4], v)};
    const int32_t middle = s[2];
    const bool leanHigh = dropHighest;
    for (int i = 0; i < 5; ++i) sorted[i] = leanHigh ? high[i] : low[i];
    // It leans the other way once a value lands on the other side of the middle.
    dropHighest = leanHigh ? v < middle : !(middle < v);
  }

 private:
  PCV_HOST_DEVICE static int32_t lesser(int32_t a, int32_t b) { return a < b ? a : b; }
  PCV_HOST_DEVICE static int32_t greater(int32_t a, int32_t b) { return a < b ? b : a; }
};

/// Median of the last three differences (the version 1 predictor).
PCV_HOST_DEVICE inline int32_t medianOfThree(const int32_t v[3]) {
  const int32_t low = v[0] < v[1] ? v[0] : v[1];
  const int32_t high = v[0] < v[1] ? v[1] : v[0];
  return v[2] < low ? low : (v[2] > high ? high : v[2]);
}

}  // namespace pcv::laz
