// Numbers as text: no negative zero, as many decimals as a range's span asks for, and the
// shortest text that reads back exactly.
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>

#include "pcv/core/number_text.hpp"

namespace pcv {
namespace {

TEST(NumberText, ValuesThatRoundToZeroHaveNoSign) {
  EXPECT_EQ(fixedText(-0.0, 3), "0.000");
  EXPECT_EQ(fixedText(-0.0004, 3), "0.000");
  EXPECT_EQ(fixedText(-0.0005001, 3), "-0.001");
  EXPECT_EQ(fixedText(-2.5, 1), "-2.5");
  EXPECT_EQ(fixedText(glm::dvec3(-1e-9, 1.0, -3.25), 2), "(0.00, 1.00, -3.25)");
}

TEST(NumberText, CountsReadAsPeopleSayThem) {
  EXPECT_EQ(countText(950), "950");
  EXPECT_EQ(countText(200'000), "200 k");
  EXPECT_EQ(countText(1'500'000), "1.5 M");
  EXPECT_EQ(countText(10'000'000), "10 M");
  EXPECT_EQ(countText(2'000'000'000), "2 G");
}

TEST(NumberText, DecimalsFollowTheSpan) {
  EXPECT_EQ(decimalsForSpan(-0.0445652, 0.0547456), 3);
  EXPECT_EQ(decimalsForSpan(0.0, 1000.0), 0);
  EXPECT_EQ(decimalsForSpan(1.0, 4.0), 1);
  EXPECT_EQ(decimalsForSpan(1000.001, 1000.002), 4);
  EXPECT_EQ(decimalsForSpan(5.0, 5.0), 3);  // no span: a sensible default
}

TEST(NumberText, ExactTextReadsBackToTheSameBitsAndIsShort) {
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> wide(-1e7, 1e7);
  for (int i = 0; i < 10000; ++i) {
    const double value = wide(random);
    EXPECT_EQ(std::strtod(exactText(value).c_str(), nullptr), value);
    const float single = float(value);
    EXPECT_EQ(std::strtof(exactFloatText(single).c_str(), nullptr), single);
  }
  EXPECT_EQ(exactText(0.1), "0.1");
  EXPECT_EQ(exactText(636400.25), "636400.25");
  EXPECT_EQ(exactFloatText(0.1f), "0.1");
}

TEST(NumberText, OffsetTextDropsTheFloatOffsetsNoise) {
  // A file's 636407.01 held as the float offset 407.01f from the origin 636000.
  const double origin = 636000.0;
  const double seen = origin + double(407.01f);
  EXPECT_NE(exactText(seen), "636407.01");
  EXPECT_EQ(offsetText(seen, origin), "636407.01");
  EXPECT_EQ(offsetText(origin + double(0.25f), origin), "636000.25");
  EXPECT_EQ(offsetText(-3.0, 0.0), "-3");
  std::mt19937_64 random(11);
  std::uniform_real_distribution<float> offsets(-5000.0f, 5000.0f);
  for (int i = 0; i < 10000; ++i) {
    const float offset = offsets(random);
    const double value = origin + double(offset);
    EXPECT_EQ(float(std::strtod(offsetText(value, origin).c_str(), nullptr) - origin), offset);
  }
}

}  // namespace
}  // namespace pcv
