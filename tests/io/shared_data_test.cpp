// The loaders against real files from other projects' test suites (shared/data, see its
// MANIFEST.md): every well-formed or edge-case file loads with the documented count and bounds,
// and every file broken on purpose fails with an InputError.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "io_test_util.hpp"
#include "test_support.hpp"

namespace pcv::test {
namespace {

std::filesystem::path dataFile(const std::string& name) {
  return testDataDir() / name;
}

#define PCV_REQUIRE_TEST_DATA()                                                     \
  do {                                                                              \
    if (testDataDir().empty()) GTEST_SKIP() << "shared test data folder not found"; \
  } while (0)

struct Expected {
  const char* file;
  uint64_t points;
  double min[3], max[3];  ///< NaN: not checked
};

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Counts and bounds from MANIFEST.md (data bounds, or LAS header bounds where they are right).
const Expected kExpected[] = {
    {"las/simple.las", 1065, {635619.85, 848899.7, 406.59}, {638982.55, 853535.43, 586.38}},
    {"las/point10.las", 1065, {493994.87, 4877429.62, 123.93}, {494993.68, 4878817.02, 178.73}},
    {"las/1.0_0.las", 1, {470692.44, 4602888.9, 16}, {470692.44, 4602888.9, 16}},
    {"las/autzen_trim.las", 110000, {636001.76, 848935.2, 406.26}, {637179.22, 849497.9, 520.51}},
    {"las/test1_4.las",
     1000,
     {1694038.446, 1816492.706, 5592.75},
     {1694539.677, 1816497.976, 5599.07}},
    {"las/1_4_w_evlr.las",
     1000,
     {1694038.446, 1816492.706, 5592.75},
     {1694539.677, 1816497.976, 5599.07}},
    {"las/v4d8.las", 10, {150.34, 90.73, 7.7}, {999.12, 802.41, 947.76}},
    {"las/extrabytes.las", 1065, {635619.85, 848899.7, 406.59}, {638982.55, 853535.43, 586.38}},
    {"las/simple1_3.las",
     999,
     {-235434.519, 5800843.145, 265.094},
     {-234935.841, 5800946.249, 273.811}},
    {"las/no-points.las", 0, {kNaN}, {kNaN}},
    {"ply/platonic_shelf.ply", 50, {-6.52431, -1.15809, -1.15809}, {6.96323, 1.15809, 1.15809}},
    {"ply/platonic_shelf_big_endian.ply",
     50,
     {-6.52431, -1.15809, -1.15809},
     {6.96323, 1.15809, 1.15809}},
    {"ply/platonic_shelf_ascii.ply",
     50,
     {-6.52431, -1.15809, -1.15809},
     {6.96323, 1.15809, 1.15809}},
    {"ply/delim_test.ply", 24, {-0.0759899, 0.22797, -12.621}, {12.6143, 12.2344, 0}},
    {"ply/bun000.ply", 40256, {-0.09475, 0.0357363, -0.0586982}, {0.061, 0.18794, 0.0587228}},
    {"ply/sofa.ply", 12103, {-1038, -0.0002, -491.107}, {1038, 877.893, 491.107}},
    {"ply/float_inf_point_cloud.ply", 13, {kNaN}, {kNaN}},  // 16 minus 3 with an infinity
    {"ply/ply_empty_bin.ply", 0, {kNaN}, {kNaN}},
    {"pcd/milk_color.pcd", 13704, {-0.140083, -0.26378, 0.714}, {0.0138067, -0.0117286, 0.891}},
    {"pcd/car6.pcd", 10031, {-40.169, -68.56, -6.99}, {-33.95, -61.88, -5.43}},
    {"pcd/table_scene_mug_stereo_textured.pcd",
     307200 - 97920,
     {-0.45643, -0.51074, 0.69001},
     {0.71518, 0.17923, 2.5927}},
    {"pcd/autzen-utm.pcd", 1065, {493994.87, 4877429.62, 123.93}, {494993.68, 4878817.02, 178.73}},
    {"pcd/curve_close.pcd", 110, {0, 0, 0}, {1, 1, 0}},
    {"pcd/bunny.pcd", 397, {-0.093938, 0.03742, -0.055026}, {0.059562, 0.1845, 0.057803}},
    {"text/autzen.pts", 10, {636102.84, 848968.8, 427.92}, {636126.4, 849345.2, 512.14}},
    {"text/crlf_test.txt", 10, {289814.15, 4320978.61, 170.58}, {289818.5, 4320980.59, 170.76}},
    {"text/data.xyz", 400, {440750, 3750150, 74}, {441890, 3751290, 255}},
    {"text/quoted.txt", 9, {0, 1, 2}, {29, 25, 2}},
    {"text/points_cloudcompare.xyz",
     101,
     {665171.375, 5648298.097, 228.049},
     {665187.871, 5648381.899, 245.903}},
};

TEST(SharedData, LoadsDocumentedCountsAndBounds) {
  PCV_REQUIRE_TEST_DATA();
  for (const Expected& e : kExpected) {
    SCOPED_TRACE(e.file);
    FileSummary summary;
    const PointCloud cloud = readPointCloud(dataFile(e.file), nullptr, &summary);
    EXPECT_EQ(cloud.size(), e.points);
    EXPECT_EQ(summary.pointCount, e.points);
    if (std::isnan(e.min[0])) continue;
    const Box3d bounds = cloud.worldBounds();
    for (int a = 0; a < 3; ++a) {
      // Files print 6-9 significant digits; float offsets add < 1 mm.
      const double tolerance = 1e-5 * std::max(1.0, std::abs(e.max[a])) + 1e-3;
      EXPECT_NEAR(bounds.min[a], e.min[a], tolerance) << "axis " << a;
      EXPECT_NEAR(bounds.max[a], e.max[a], tolerance) << "axis " << a;
    }
  }
}

TEST(SharedData, EveryWellFormedFileLoads) {
  PCV_REQUIRE_TEST_DATA();
  const char* files[] = {"las/point-time.las",
                         "las/point-color.las",
                         "las/1.1_1.las",
                         "las/vegetation_1_3.las",
                         "las/autzen-thin.las",
                         "las/autzen-bmx-2010.las",
                         "las/lots_of_vlr.las",
                         "las/5points_14.las",
                         "las/gps-time-nan.las",
                         "ply/bunny_tinyply.ply",
                         "ply/simple_text.ply",
                         "ply/simple_binary.ply",
                         "ply/points_ascii.ply",
                         "ply/points_bin.ply",
                         "ply/mesh.ply",
                         "ply/test_pos_color.ply",
                         "ply/icosahedron.ply",
                         "ply/cube.ply",
                         "ply/duplicated_pcloud.ply",
                         "ply/text_extradim.ply",
                         "ply/unsized_dims.ply",
                         "pcd/bun0.pcd",
                         "pcd/colored_cloud.pcd",
                         "pcd/office1_keypoints.pcd",
                         "pcd/utm17_space.pcd",
                         "pcd/nhood_test.pcd",
                         "text/utm17_1.txt",
                         "text/crlf_test2.txt",
                         "text/site_56_8.pts",
                         "text/missingheader.txt"};
  for (const char* file : files) {
    SCOPED_TRACE(file);
    EXPECT_NO_THROW(readPointCloud(dataFile(file)));
  }
}

TEST(SharedData, EveryMalformedFileFailsWithInputError) {
  PCV_REQUIRE_TEST_DATA();
  const char* files[] = {"las/bad_vlr_count.las", "las/garbage_nVariableLength.las",
                         "ply/no_vertex.ply",     "ply/points_emptyascii.ply",
                         "pcd/missingheader.pcd", "text/badheader.txt",
                         "e57/bad-crc.e57"};
  for (const char* file : files) {
    SCOPED_TRACE(file);
    const std::string message = inputErrorOf(dataFile(file));
    EXPECT_NE(message.find(file), std::string::npos) << "message names the file: " << message;
  }
}

TEST(SharedData, AClippedLasFileLoadsItsWholeRecordsUnlessStrict) {
  PCV_REQUIRE_TEST_DATA();
  const char* file = "las/1.2-with-color-clipped.las";
  FileSummary summary;
  const PointCloud cloud = readPointCloud(dataFile(file), ReadOptions{}, nullptr, &summary);
  EXPECT_GT(summary.missingPoints, 0u);
  EXPECT_FALSE(summary.warnings.empty());
  EXPECT_EQ(cloud.size() + summary.missingPoints, describePointFile(dataFile(file)).pointCount);
  ReadOptions strict;
  strict.strict = true;
  try {
    readPointCloud(dataFile(file), strict, nullptr, nullptr);
    ADD_FAILURE() << file << " read under strict";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find(file), std::string::npos) << error.what();
  }
}

TEST(SharedData, LazLoadsTheSamePointsAsItsLasTwin) {
  PCV_REQUIRE_TEST_DATA();
  for (const char* name : {"simple", "1_4_w_evlr"}) {
    SCOPED_TRACE(name);
    FileSummary lazSummary, lasSummary;
    const PointCloud laz =
        readPointCloud(dataFile(std::string("laz/") + name + ".laz"), nullptr, &lazSummary);
    const PointCloud las =
        readPointCloud(dataFile(std::string("las/") + name + ".las"), nullptr, &lasSummary);
    EXPECT_EQ(lazSummary.format, "LAZ");
    ASSERT_EQ(laz.size(), las.size());
    EXPECT_EQ(laz.origin, las.origin);
    EXPECT_EQ(laz.hasColor, las.hasColor);
    EXPECT_EQ(lazSummary.worldBounds.min, lasSummary.worldBounds.min);
    EXPECT_EQ(lazSummary.worldBounds.max, lasSummary.worldBounds.max);
    EXPECT_EQ(std::memcmp(laz.points.data(), las.points.data(), las.size() * sizeof(Point)), 0);
    ASSERT_EQ(laz.attributes.size(), las.attributes.size());
    for (size_t a = 0; a < las.attributes.size(); ++a) {
      EXPECT_EQ(laz.attributes[a].name, las.attributes[a].name);
      EXPECT_TRUE(std::equal(laz.attributes[a].values.begin(), laz.attributes[a].values.end(),
                             las.attributes[a].values.begin()));
    }
  }
}

TEST(SharedData, CopcLoadsEveryPoint) {
  PCV_REQUIRE_TEST_DATA();
  FileSummary summary;
  const PointCloud cloud =
      readPointCloud(dataFile("laz/1.2-with-color.copc.laz"), nullptr, &summary);
  EXPECT_EQ(cloud.size(), 1065u);
  EXPECT_EQ(summary.format, "COPC");
  EXPECT_TRUE(cloud.hasColor);
}

TEST(SharedData, KeepsLasAttributesAndColors) {
  PCV_REQUIRE_TEST_DATA();
  const PointCloud cloud = readPointCloud(dataFile("las/simple.las"));
  EXPECT_TRUE(cloud.hasColor);
  ASSERT_NE(cloud.findAttribute("intensity"), nullptr);
  ASSERT_NE(cloud.findAttribute("classification"), nullptr);
  ASSERT_NE(cloud.findAttribute("return_number"), nullptr);
  // The Autzen excerpt is classified as ground (2) and unclassified (1) only.
  for (float c : cloud.findAttribute("classification")->values) {
    EXPECT_TRUE(c == 1.0f || c == 2.0f) << c;
  }
  // 16-bit colours are scaled to 8 bit, not truncated to their low byte: not all dark.
  uint32_t brightest = 0;
  for (const Point& p : cloud.points) brightest = std::max(brightest, redOf(p.rgba));
  EXPECT_GT(brightest, 128u);
}

TEST(SharedData, KeepsPcdPackedColorsAndNames) {
  PCV_REQUIRE_TEST_DATA();
  const PointCloud milk = readPointCloud(dataFile("pcd/milk_color.pcd"));
  EXPECT_TRUE(milk.hasColor);
  const PointCloud autzen = readPointCloud(dataFile("pcd/autzen-utm.pcd"));
  EXPECT_NE(autzen.findAttribute("intensity"), nullptr) << "upper-case field names are matched";
  EXPECT_TRUE(autzen.hasColor);
  const PointCloud office = readPointCloud(dataFile("pcd/office1_keypoints.pcd"));
  EXPECT_NE(office.findAttribute("intensity"), nullptr);
}

TEST(SharedData, PtsColumnsAreIntensityThenColor) {
  PCV_REQUIRE_TEST_DATA();
  const PointCloud cloud = readPointCloud(dataFile("text/autzen.pts"));
  ASSERT_NE(cloud.findAttribute("intensity"), nullptr);
  EXPECT_FLOAT_EQ(cloud.findAttribute("intensity")->values[0], -1613.0f);
  EXPECT_TRUE(cloud.hasColor);
  EXPECT_EQ(cloud.points[0].rgba, packRgba(52, 70, 64));
}

TEST(SharedData, SummaryDescribesLas14) {
  PCV_REQUIRE_TEST_DATA();
  const FileSummary summary = summarizePointCloud(dataFile("las/test1_4.las"));
  EXPECT_EQ(summary.format, "LAS");
  EXPECT_NE(summary.details.find("1.4"), std::string::npos);
  EXPECT_NE(summary.details.find("point format 6"), std::string::npos);
  EXPECT_EQ(summary.pointCount, 1000u);
}

}  // namespace
}  // namespace pcv::test
