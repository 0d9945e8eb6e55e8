// The profile figure's parts through the library: round ticks, the point size chosen from the
// corridor's density, and the bitmap font's glyphs.
#include "pcv/session/profile_figure.hpp"

#include <gtest/gtest.h>

#include <random>

#include "pcv/core/bitmap_font.hpp"

namespace pcv {
namespace {

TEST(ProfileFigure, TicksAreRoundValuesInTheRange) {
  EXPECT_EQ(roundTicks(0.0, 10.0, 5), (std::vector<double>{0, 2, 4, 6, 8, 10}));
  EXPECT_EQ(roundTicks(-0.3, 1.2, 3), (std::vector<double>{0.0, 0.5, 1.0}));
  EXPECT_EQ(roundTicks(403.7, 612.2, 5), (std::vector<double>{450, 500, 550, 600}));
  EXPECT_EQ(roundTicks(403.7, 612.2, 4), (std::vector<double>{500, 600}));  // at most about 4
  const std::vector<double> negative = roundTicks(-7.5, -2.2, 6);
  ASSERT_FALSE(negative.empty());
  EXPECT_DOUBLE_EQ(negative.front(), -7.0);
  EXPECT_DOUBLE_EQ(negative.back(), -3.0);
  EXPECT_TRUE(roundTicks(1.0, 1.0, 5).empty());
}

/// A profile of points at (distance, z), as extractProfile would give.
ProfilePoints profileOf(const std::vector<glm::dvec2>& points) {
  ProfilePoints profile;
  for (const glm::dvec2& p : points) {
    profile.positions.push_back({p.x, 0.0, p.y});
    profile.distances.push_back(p.x);
  }
  return profile;
}

TEST(ProfileFigure, PointSizeGrowsAsTheCorridorThins) {
  std::mt19937 random(5);
  std::uniform_real_distribution<double> along(0.0, 100.0), up(0.0, 20.0);
  std::vector<glm::dvec2> sparse, dense;
  for (int i = 0; i < 60; ++i) sparse.push_back({along(random), up(random)});
  // A band filled point by point: every pixel of it hit.
  for (double d = 0.0; d <= 100.0; d += 0.05) {
    for (double z = 0.0; z <= 20.0; z += 0.05) dense.push_back({d, z});
  }
  const int width = 800, height = 300;
  const ProfilePoints few = profileOf(sparse), many = profileOf(dense);
  const int sparseSize =
      profilePointSizePx(few, profileImageCamera(few, width, height), width, height);
  const int denseSize =
      profilePointSizePx(many, profileImageCamera(many, width, height), width, height);
  EXPECT_EQ(denseSize, 1);
  EXPECT_EQ(sparseSize, kMaxProfilePointSizePx);
  const ProfilePoints none;
  EXPECT_EQ(profilePointSizePx(none, profileImageCamera(none, width, height), width, height), 1);
}

TEST(ProfileFigure, FontDrawsDigitsAndTheLettersOfLabels) {
  for (const char c : std::string("0123456789.-,() >distanceelevationwidthmftUS")) {
    EXPECT_TRUE(hasGlyph(c)) << c;
  }
  // Each digit has ink, and each is different from the others.
  std::vector<std::vector<uint32_t>> seen;
  for (char c = '0'; c <= '9'; ++c) {
    Image image(kGlyphWidth, kGlyphHeight, 0u);
    drawText(image, 0, 0, std::string(1, c), 1u);
    EXPECT_GT(std::count(image.pixels.begin(), image.pixels.end(), 1u), 5) << c;
    EXPECT_EQ(std::find(seen.begin(), seen.end(), image.pixels), seen.end()) << c;
    seen.push_back(image.pixels);
  }
  // Scaled text is as wide as textWidthPx says, and clipped at the image's edges.
  Image image(40, 20, 0u);
  drawText(image, 0, 0, "10", 1u, 2);
  int right = -1;
  for (int y = 0; y < image.height; ++y) {
    for (int x = 0; x < image.width; ++x)
      if (image.at(x, y) == 1u) right = std::max(right, x);
  }
  EXPECT_EQ(right + 1, textWidthPx("10", 2));
  drawText(image, 35, 15, "888", 1u, 3);  // mostly outside: no crash
}

}  // namespace
}  // namespace pcv
