// Colour maps, the ASPRS palette and colorize()'s fallbacks.
#include <gtest/gtest.h>

#include <cmath>

#include "pcv/core/color_map.hpp"
#include "pcv/core/error.hpp"
#include "pcv/core/point_coloring.hpp"

namespace pcv {
namespace {

TEST(ColorMap, EndpointsMatchThePublishedMaps) {
  const glm::vec3 v0 = colorMapValue(ColorMap::Viridis, 0.0f),
                  v1 = colorMapValue(ColorMap::Viridis, 1.0f);
  EXPECT_NEAR(v0.r, 0.267f, 0.01f);
  EXPECT_NEAR(v0.g, 0.004f, 0.01f);
  EXPECT_NEAR(v0.b, 0.329f, 0.01f);
  EXPECT_NEAR(v1.r, 0.993f, 0.01f);
  EXPECT_NEAR(v1.g, 0.906f, 0.01f);
  EXPECT_NEAR(v1.b, 0.144f, 0.01f);
  // Turbo runs from dark blue-violet through green to dark red.
  const glm::vec3 t0 = colorMapValue(ColorMap::Turbo, 0.0f),
                  t1 = colorMapValue(ColorMap::Turbo, 1.0f);
  const glm::vec3 tm = colorMapValue(ColorMap::Turbo, 0.5f);
  EXPECT_LT(t0.r, 0.3f);
  EXPECT_LT(t0.g, 0.2f);
  EXPECT_GT(t1.r, 0.4f);
  EXPECT_LT(t1.g, 0.1f);
  EXPECT_LT(t1.b, 0.1f);
  EXPECT_GT(tm.g, 0.8f);
  EXPECT_EQ(colorMapRgba(ColorMap::Grey, 2.0f), packRgba(255, 255, 255)) << "t is clamped";
  EXPECT_EQ(colorMapRgba(ColorMap::Grey, NAN), packRgba(0, 0, 0));
}

TEST(ColorMap, ViridisLightnessIncreases) {
  float previous = -1.0f;
  for (int i = 0; i <= 20; ++i) {
    const glm::vec3 c = colorMapValue(ColorMap::Viridis, float(i) / 20.0f);
    const float luma = 0.2126f * c.r + 0.7152f * c.g + 0.0722f * c.b;
    EXPECT_GT(luma, previous);
    previous = luma;
  }
}

TEST(ColorMap, AsprsPaletteCoversStandardClasses) {
  EXPECT_EQ(classificationName(2), "ground");
  EXPECT_EQ(classificationName(6), "building");
  EXPECT_EQ(classificationName(9), "water");
  EXPECT_EQ(classificationName(18), "high noise");
  EXPECT_EQ(classificationName(40), "class 40");
  EXPECT_NE(classificationRgba(2), classificationRgba(6));
}

PointCloud ramp() {
  PointCloud cloud;
  for (int i = 0; i < 100; ++i) cloud.points.push_back({0, 0, float(i), 0});
  return cloud;
}

TEST(ColorMap, ColorizeFallsBackToElevation) {
  PointCloud cloud = ramp();
  EXPECT_EQ(colorize(cloud, ColorMode::Rgb), ColorMode::Elevation);
  EXPECT_EQ(colorize(cloud, ColorMode::Intensity), ColorMode::Elevation);
  EXPECT_EQ(colorize(cloud, ColorMode::Classification), ColorMode::Elevation);
  EXPECT_NE(cloud.points[0].rgba, cloud.points[99].rgba);
}

TEST(ColorMap, ColorizeByClassAndIntensity) {
  PointCloud cloud = ramp();
  cloud.attributes.push_back({"classification", UninitializedVector<float>(100, 2.0f)});
  cloud.attributes.push_back({"intensity", {}});
  for (int i = 0; i < 100; ++i) cloud.attributes[1].values.push_back(float(i));
  EXPECT_EQ(colorize(cloud, ColorMode::Classification), ColorMode::Classification);
  EXPECT_EQ(cloud.points[50].rgba, classificationRgba(2));
  EXPECT_EQ(colorize(cloud, ColorMode::Intensity), ColorMode::Intensity);
  EXPECT_LT(redOf(cloud.points[0].rgba), redOf(cloud.points[99].rgba));
  EXPECT_THROW(parseColorMode("height"), InputError);
}

TEST(ColorMap, RgbKeepsFileColors) {
  PointCloud cloud = ramp();
  cloud.hasColor = true;
  cloud.points[3].rgba = 1234;
  EXPECT_EQ(colorize(cloud, ColorMode::Rgb), ColorMode::Rgb);
  EXPECT_EQ(cloud.points[3].rgba, 1234u);
}

}  // namespace
}  // namespace pcv
