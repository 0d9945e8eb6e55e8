// Numbers for people: no negative zero, and as many decimals as a range's span asks for.
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace pcv
