#include <gtest/gtest.h>

#include "pcv/core/text_case.hpp"

namespace pcv {
namespace {

TEST(TextCase, LowerCaseTurnsOnlyAsciiCapitals) {
  EXPECT_EQ(lowerCase("Tile_01.COPC.LAZ"), "tile_01.copc.laz");
  EXPECT_EQ(lowerCase("\xC3\x89t\xC3\xA9"), "\xC3\x89t\xC3\xA9");  // bytes above ASCII unchanged
  EXPECT_EQ(lowerCase(""), "");
}

TEST(TextCase, SuffixesIgnoreCase) {
  EXPECT_TRUE(endsWithIgnoringCase("a/TILE.LAZ", ".laz"));
  EXPECT_TRUE(endsWithIgnoringCase("x.copc.laz", ".COPC.LAZ"));
  EXPECT_FALSE(endsWithIgnoringCase("laz", ".laz"));
  EXPECT_FALSE(endsWithIgnoringCase("a.las", ".laz"));
  EXPECT_TRUE(endsWithIgnoringCase("anything", ""));
}

TEST(TextCase, EqualityIgnoresCaseNotLength) {
  EXPECT_TRUE(equalsIgnoringCase("CUDA", "cuda"));
  EXPECT_FALSE(equalsIgnoringCase("cuda", "cud"));
  EXPECT_FALSE(equalsIgnoringCase("cpu", "gpu"));
}

}  // namespace
}  // namespace pcv
