// MedianOfFive's update rule is part of the LAZ bitstream: its branch-free form must keep every
// value and every lean of the insertion rule it replaces, ties included.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>

#include "laz/median_predictors.hpp"

namespace {

using pcv::laz::MedianOfFive;

/// The rule as LASzip states it: insertion into the sorted five, dropping the largest while
/// leaning high (new values after equal ones), the smallest while leaning low (before them).
struct ReferenceMedian {
  int32_t sorted[5] = {0, 0, 0, 0, 0};
  bool dropHighest = true;

  void add(int32_t value) {
    const int32_t middle = sorted[2];
    if (dropHighest) {
      int i = 4;
      while (i > 0 && sorted[i - 1] > value) {
        sorted[i] = sorted[i - 1];
        --i;
      }
      sorted[i] = value;
      if (!(value < middle)) dropHighest = false;
    } else {
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

void expectSameAsReference(std::mt19937& random, int32_t low, int32_t high) {
  std::uniform_int_distribution<int32_t> values(low, high);
  MedianOfFive median;
  median.reset();
  ReferenceMedian reference;
  for (int i = 0; i < 100000; ++i) {
    const int32_t value = values(random);
    median.add(value);
    reference.add(value);
    for (int j = 0; j < 5; ++j) ASSERT_EQ(median.sorted[j], reference.sorted[j]) << "step " << i;
    ASSERT_EQ(median.dropHighest, reference.dropHighest) << "step " << i;
  }
}

TEST(LazMedianOfFive, KeepsTheInsertionRuleWithManyTies) {
  std::mt19937 random(5);
  expectSameAsReference(random, -3, 3);
}

TEST(LazMedianOfFive, KeepsTheInsertionRuleOverTheWholeRange) {
  std::mt19937 random(6);
  expectSameAsReference(random, INT32_MIN, INT32_MAX);
}

}  // namespace
