// Colouring by any attribute: percentile ranges, typed ranges, attribute selection, fallbacks,
// and that the cloud's own colours survive (switching modes is lossless).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "io_test_util.hpp"
#include "pcv/core/error.hpp"
#include "pcv/core/point_coloring.hpp"
#include "pcv/io/png_writer.hpp"
#include "json_report.hpp"
#include "test_support.hpp"

namespace pcv::test {
namespace {

/// 1000 points at z = 0..999 above an origin of z = 100, with intensity 2 z and a colour each.
PointCloud rampCloud() {
  PointCloud cloud;
  cloud.origin = glm::dvec3(500000.0, 5000000.0, 100.0);
  cloud.hasColor = true;
  ScalarAttribute intensity{"intensity", {}}, gpsTime{"gps_time", {}};
  for (int i = 0; i < 1000; ++i) {
    cloud.points.push_back({float(i % 10), float(i / 10), float(i), packRgba(i % 256, 7, 9)});
    intensity.values.push_back(float(2 * i));
    gpsTime.values.push_back(float(1000 - i));
  }
  cloud.attributes = {intensity, gpsTime};
  return cloud;
}

ColoringOptions byMode(ColorMode mode) {
  ColoringOptions options;
  options.mode = mode;
  return options;
}

TEST(PercentileRange, IsTheSecondToNinetyEighthPercentileLinearBetweenRanks) {
  std::vector<float> values;
  for (int i = 999; i >= 0; --i) values.push_back(float(i));  // order must not matter
  const ValueRange range = percentileRange(values);
  // q (n - 1) = 0.02 * 999 = 19.98 and 0.98 * 999 = 979.02.
  EXPECT_NEAR(range.low, 19.98, 1e-9);
  EXPECT_NEAR(range.high, 979.02, 1e-9);
  const ValueRange full = percentileRange(values, 0.0, 1.0, 100.0);
  EXPECT_DOUBLE_EQ(full.low, 100.0);
  EXPECT_DOUBLE_EQ(full.high, 1099.0);
}

TEST(PercentileRange, IgnoresNonFiniteValuesAndOutliers) {
  std::vector<float> values(1000, 5.0f);
  for (int i = 0; i < 1000; ++i) values[i] = float(i % 100);
  values[0] = std::numeric_limits<float>::quiet_NaN();
  values[1] = std::numeric_limits<float>::infinity();
  values[2] = 1e30f;  // one wild value must not stretch the ramp
  const ValueRange range = percentileRange(values);
  EXPECT_LT(range.high, 100.0);
  EXPECT_GE(range.low, 0.0);
}

TEST(PercentileRange, FlatAndEmptyDataGiveAUnitRange) {
  const std::vector<float> flat(10, 3.0f);
  const ValueRange range = percentileRange(flat);
  EXPECT_DOUBLE_EQ(range.low, 2.5);
  EXPECT_DOUBLE_EQ(range.high, 3.5);
  const ValueRange empty = percentileRange(std::span<const float>());
  EXPECT_DOUBLE_EQ(empty.high - empty.low, 1.0);
}

TEST(ValueRangeText, ParsesMinMaxAndRejectsTheRest) {
  const ValueRange range = parseValueRange("-2.5,1e3");
  EXPECT_DOUBLE_EQ(range.low, -2.5);
  EXPECT_DOUBLE_EQ(range.high, 1000.0);
  for (const char* bad : {"", "1", "1,", ",2", "3,1", "1,1", "a,b", "1,2,3", "nan,1", "0,inf"}) {
    EXPECT_THROW(parseValueRange(bad), InputError) << bad;
  }
}

TEST(ColorMapNames, RoundTripAndAcceptGray) {
  for (const std::string& name : colorMapNames()) {
    EXPECT_EQ(colorMapName(parseColorMap(name)), name);
  }
  EXPECT_EQ(parseColorMap("gray"), ColorMap::Grey);
  EXPECT_THROW(parseColorMap("jet"), InputError);
}

TEST(PointColoring, ColorsByAnyAttributeWithItsDefaultMapAndAutoRange) {
  const PointCloud cloud = rampCloud();
  std::vector<uint32_t> rgba(cloud.size());
  ColoringOptions options;
  options.mode = ColorMode::Attribute;
  options.attribute = "gps_time";
  const Coloring used = colorPoints(cloud, options, rgba);
  EXPECT_EQ(used.mode, ColorMode::Attribute);
  EXPECT_EQ(used.attribute, "gps_time");
  EXPECT_EQ(used.map, ColorMap::Viridis);
  EXPECT_NEAR(used.range.low, 1.0 + 19.98, 1e-3);  // gps_time = 1000 - i runs 1..1000
  EXPECT_NEAR(used.range.high, 1.0 + 979.02, 1e-3);
  // gps_time falls as i rises: the first point is at the top of the map, the last at the bottom.
  EXPECT_EQ(rgba[0], colorMapRgba(ColorMap::Viridis, 1.0f));
  EXPECT_EQ(rgba[999], colorMapRgba(ColorMap::Viridis, 0.0f));
}

TEST(PointColoring, TypedRangeAndMapAreUsedAsGiven) {
  const PointCloud cloud = rampCloud();
  std::vector<uint32_t> rgba(cloud.size());
  ColoringOptions options;
  options.mode = ColorMode::Intensity;
  options.map = ColorMap::Turbo;
  options.range = ValueRange{0.0, 1000.0};
  const Coloring used = colorPoints(cloud, options, rgba);
  EXPECT_EQ(used.map, ColorMap::Turbo);
  EXPECT_DOUBLE_EQ(used.range.high, 1000.0);
  EXPECT_EQ(rgba[250], colorMapRgba(ColorMap::Turbo, 0.5f));  // intensity 500 of 0..1000
  EXPECT_EQ(rgba[600], colorMapRgba(ColorMap::Turbo, 1.0f));  // clamped above the range
}

TEST(PointColoring, CoordinatesAreWorldValues) {
  const PointCloud cloud = rampCloud();
  std::vector<uint32_t> rgba(cloud.size());
  ColoringOptions options;
  options.mode = ColorMode::Elevation;
  options.range = ValueRange{100.0, 1099.0};  // world z of the points
  const Coloring used = colorPoints(cloud, options, rgba);
  EXPECT_EQ(used.attribute, "z");
  EXPECT_EQ(used.map, ColorMap::Turbo);
  EXPECT_EQ(rgba[0], colorMapRgba(ColorMap::Turbo, 0.0f));
  EXPECT_EQ(rgba[999], colorMapRgba(ColorMap::Turbo, 1.0f));
  const Coloring automatic = colorPoints(cloud, byMode(ColorMode::Elevation), rgba);
  EXPECT_NEAR(automatic.range.low, 100.0 + 19.98, 1e-3);
}

TEST(PointColoring, UnknownAttributeListsTheKnownOnes) {
  const PointCloud cloud = rampCloud();
  std::vector<uint32_t> rgba(cloud.size());
  ColoringOptions options;
  options.mode = ColorMode::Attribute;
  options.attribute = "nir";
  try {
    colorPoints(cloud, options, rgba);
    FAIL() << "expected InputError";
  } catch (const InputError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("'nir'"), std::string::npos) << message;
    EXPECT_NE(message.find("intensity, gps_time, x, y, z"), std::string::npos) << message;
  }
}

TEST(PointColoring, SwitchingModesKeepsTheFilesColors) {
  const PointCloud cloud = rampCloud();
  UninitializedVector<Point> shown;
  coloredPoints(cloud, byMode(ColorMode::Intensity), shown);
  EXPECT_NE(shown[3].rgba, cloud.points[3].rgba);
  const Coloring back = coloredPoints(cloud, byMode(ColorMode::Rgb), shown);
  EXPECT_EQ(back.mode, ColorMode::Rgb);
  for (uint64_t i = 0; i < cloud.size(); ++i) {
    ASSERT_EQ(shown[i].rgba, cloud.points[i].rgba) << i;
    ASSERT_EQ(shown[i].z, cloud.points[i].z) << i;
  }
}

TEST(PointColoring, ClassificationListsTheClassesPresent) {
  PointCloud cloud = rampCloud();
  ScalarAttribute classes{"classification", {}};
  for (uint64_t i = 0; i < cloud.size(); ++i) classes.values.push_back(i % 3 == 0 ? 2.0f : 6.0f);
  cloud.attributes.push_back(classes);
  std::vector<uint32_t> rgba(cloud.size());
  const Coloring used = colorPoints(cloud, byMode(ColorMode::Classification), rgba);
  EXPECT_EQ(used.classes, (std::vector<uint32_t>{2, 6}));
  EXPECT_EQ(rgba[0], classificationRgba(2));
  EXPECT_EQ(rgba[1], classificationRgba(6));
}

TEST(PointColoring, MissingDataFallsBackToElevationAndSaysWhy) {
  PointCloud cloud = rampCloud();
  cloud.hasColor = false;
  std::vector<uint32_t> rgba(cloud.size());
  const Coloring used = colorPoints(cloud, byMode(ColorMode::Rgb), rgba);
  EXPECT_EQ(used.mode, ColorMode::Elevation);
  EXPECT_EQ(used.note, "no colours in the data");
  EXPECT_EQ(colorPoints(cloud, byMode(ColorMode::Classification), rgba).mode, ColorMode::Elevation);
}

TEST(RenderCli, ColorsByAnAttributeWithAMapAndRange) {
  TempDir dir;
  std::vector<SyntheticPoint> points;
  for (int i = 0; i < 1000; ++i) {
    SyntheticPoint p{500000.0 + i % 40, 5000000.0 + i / 40, 100.0};
    p.intensity = uint16_t(i);
    points.push_back(p);
  }
  writeBytes(dir.file("i.las"), makeLas(points));
  std::string output;
  const std::string png = dir.file("i.png").string();
  const std::string command = pcvExecutable().string() + " render " + dir.file("i.las").string() +
                              " --backend cpu --size 160x90 --out " + png;
  const std::string report = dir.file("i.json").string();
  ASSERT_EQ(runCommand(command +
                           " --color-attribute intensity --color-map viridis "
                           "--color-range 0,2000 --report " +
                           report,
                       &output),
            0)
      << output;
  const nlohmann::json coloring = readJsonReport(report).value("coloring", nlohmann::json());
  EXPECT_EQ(coloring, nlohmann::json({{"mode", "attribute"},
                                      {"attribute", "intensity"},
                                      {"map", "viridis"},
                                      {"range", {0.0, 2000.0}}}));
  const Image image = readPng(png);
  EXPECT_GT(countLitPixels(image, image.pixels[0]), 100u);
  EXPECT_NE(runCommand(command + " --color-attribute nir", &output), 0);
  EXPECT_NE(output.find("no attribute 'nir'"), std::string::npos) << output;
  EXPECT_NE(runCommand(command + " --color-range 5,1", &output), 0);
  EXPECT_NE(output.find("MIN,MAX"), std::string::npos) << output;
}

}  // namespace
}  // namespace pcv::test
