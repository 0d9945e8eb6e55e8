// The E57 reader against real files from other projects (shared/data/e57 and e57-corpus, see
// e57-corpus/MANIFEST.md): every well-formed file loads with the documented point count and
// the bounds its XML or the manifest states; the broken ones and those without scans are
// refused with a message that says why.
#include <gtest/gtest.h>

#include <cmath>

#include "e57_test_util.hpp"
#include "test_support.hpp"

namespace pcv::test {
namespace {

#define PCV_REQUIRE_E57_DATA()                                                           \
  do {                                                                                   \
    if (testDataDir().empty() || !std::filesystem::exists(testDataDir() / "e57-corpus")) \
      GTEST_SKIP() << "shared E57 test data not found";                                  \
  } while (0)

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct Expected {
  const char* file;
  uint64_t points;
  double min[3], max[3];  ///< NaN: not checked
  bool color;
};

// Counts from MANIFEST.md; bounds from the files' cartesianBounds or the manifest's field
// limits, in the digits those state.
const Expected kExpected[] = {
    {"e57-corpus/bunnyFloat.e57",
     30571,
     {-0.094689, 0.040011, -0.061873},
     {0.061009, 0.187321, 0.058799},
     false},
    {"e57-corpus/bunnyInt19.e57",
     30571,
     {-0.094689, 0.040011, -0.061873},
     {0.061009, 0.187321, 0.058799},
     false},
    {"e57-corpus/bunnyInt32.e57",
     30571,
     {-0.094689, 0.040011, -0.061873},
     {0.061009, 0.187321, 0.058799},
     false},
    {"e57/bunnyInt32.e57",
     30571,
     {-0.094689, 0.040011, -0.061873},
     {0.061009, 0.187321, 0.058799},
     false},
    {"e57-corpus/ColouredCubeDouble.e57", 7680, {-0.5, -0.5, -0.5}, {0.5, 0.5, 0.5}, true},
    {"e57/ColouredCubeFloat.e57", 7680, {-0.5, -0.5, -0.5}, {0.5, 0.5, 0.5}, true},
    {"e57-corpus/tinyCartesianFloatRgb.e57",
     2090,
     {-9.77952957, 4.5138793, 295.524689},
     {-6.77423811, 7.51546049, 298.532166},
     true},
    {"e57-corpus/scaled_integer_intensity.e57", 2, {kNaN}, {kNaN}, false},
    {"e57-corpus/A_B_different_dims.e57",
     2,
     {83.197845, 537.27032, 4.5902758},
     {84.174026, 538.46844, 4.628726},
     true},
    {"e57-corpus/testWithNormals.e57", 2, {1, 0, 0}, {2, 0, 0}, false},
    {"e57-corpus/translationWithoutRotation.e57", 4, {4, 5, 6}, {5, 6, 6}, false},
    {"e57-corpus/pumpAVisualReferenceImage.e57",
     155201,
     {-2.903764, -5.301103, -1.899705},
     {1.721604, -0.792647, 1.843003},
     true},
    {"e57-corpus/tiny_pc_and_images.e57", 2, {kNaN}, {kNaN}, false},
    {"e57/A4.e57", 4, {-44.9522, -1.3493, -0.6077}, {-44.3001, -0.886, 0.3694}, true},
    {"e57-corpus/ZeroPoints.e57", 0, {kNaN}, {kNaN}, false},
    {"e57/ZeroPoints.e57", 0, {kNaN}, {kNaN}, false},
};

TEST(E57SharedData, LoadsEveryWellFormedFileWithItsCountAndBounds) {
  PCV_REQUIRE_E57_DATA();
  for (const Expected& expected : kExpected) {
    SCOPED_TRACE(expected.file);
    const std::filesystem::path path = testDataDir() / expected.file;
    ASSERT_TRUE(std::filesystem::exists(path));
    FileSummary summary;
    const PointCloud cloud = readPointCloud(path, {}, nullptr, &summary);
    EXPECT_EQ(summary.format, "E57");
    EXPECT_EQ(cloud.size(), expected.points);
    EXPECT_EQ(cloud.hasColor, expected.color);
    if (std::isnan(expected.min[0])) continue;
    const Box3d bounds = cloud.worldBounds();
    for (int axis = 0; axis < 3; ++axis) {
      // The stated bounds carry 6 to 9 digits; the points are floats.
      const double tolerance = 1e-5 * std::max(1.0, std::abs(expected.max[axis]));
      EXPECT_NEAR(bounds.min[axis], expected.min[axis], tolerance) << "axis " << axis;
      EXPECT_NEAR(bounds.max[axis], expected.max[axis], tolerance) << "axis " << axis;
    }
  }
}

// The Stanford bunny stored three ways decodes to the same points: single floats, 19-bit and
// 32-bit scaled integers (1 micrometre steps).
TEST(E57SharedData, BunnyDecodesAlikeFromFloatsAnd19And32BitIntegers) {
  PCV_REQUIRE_E57_DATA();
  const PointCloud floats = readPointCloud(testDataDir() / "e57-corpus/bunnyFloat.e57");
  for (const char* name : {"e57-corpus/bunnyInt19.e57", "e57-corpus/bunnyInt32.e57"}) {
    SCOPED_TRACE(name);
    const PointCloud integers = readPointCloud(testDataDir() / name);
    ASSERT_EQ(integers.size(), floats.size());
    for (size_t i = 0; i < floats.size(); ++i) {
      const glm::dvec3 a = worldOf(floats, i), b = worldOf(integers, i);
      ASSERT_NEAR(a.x, b.x, 1e-6) << i;
      ASSERT_NEAR(a.y, b.y, 1e-6) << i;
      ASSERT_NEAR(a.z, b.z, 1e-6) << i;
    }
  }
}

// 360 records on the unit sphere, every odd one direction-only (dropped); the first is range 1,
// azimuth 0, elevation 0.
TEST(E57SharedData, SphericalScanKeepsItsValidPointsOnTheUnitSphere) {
  PCV_REQUIRE_E57_DATA();
  FileSummary summary;
  const PointCloud cloud =
      readPointCloud(testDataDir() / "e57-corpus/tiny_spherical.e57", {}, nullptr, &summary);
  ASSERT_EQ(cloud.size(), 180u);
  const glm::dvec3 first = worldOf(cloud, 0);
  EXPECT_NEAR(first.x, 1.0, 1e-6);
  EXPECT_NEAR(first.y, 0.0, 1e-6);
  EXPECT_NEAR(first.z, 0.0, 1e-6);
  for (size_t i = 0; i < cloud.size(); ++i) {
    EXPECT_NEAR(glm::length(worldOf(cloud, i)), 1.0, 1e-5) << i;
  }
}

TEST(E57SharedData, ScaledIntensityAndTwoScanMergeCarryTheirAttributes) {
  PCV_REQUIRE_E57_DATA();
  const PointCloud intensity =
      readPointCloud(testDataDir() / "e57-corpus/scaled_integer_intensity.e57");
  ASSERT_NE(intensity.findAttribute("intensity"), nullptr);
  for (float value : intensity.findAttribute("intensity")->values) {
    EXPECT_GE(value, 0.0f);
    EXPECT_LE(value, 1.0f);
  }
  const PointCloud merged = readPointCloud(testDataDir() / "e57-corpus/A_B_different_dims.e57");
  ASSERT_EQ(merged.size(), 2u);
  ASSERT_NE(merged.findAttribute("scan_index"), nullptr);
  EXPECT_EQ(merged.findAttribute("scan_index")->values[1], 1.0f);
  EXPECT_TRUE(std::isnan(merged.findAttribute("intensity")->values[1]));
}

TEST(E57SharedData, RefusesCorruptAndScanlessFiles) {
  PCV_REQUIRE_E57_DATA();
  struct Refused {
    const char* file;
    const char* reason;
  };
  const Refused refused[] = {
      {"e57/bad-crc.e57", "fails its CRC-32C check"},
      {"e57-corpus/corrupt_crc.e57", "page 33 (bytes 33792-34815) fails its CRC-32C check"},
      {"e57/empty.e57", "no 3D scans"},
      {"e57-corpus/empty.e57", "no 3D scans"},
      {"e57-corpus/PinholeImageWithDistortionParameters.e57", "holds only 3 images"},
  };
  for (const Refused& file : refused) {
    SCOPED_TRACE(file.file);
    const std::string message = inputErrorOf(testDataDir() / file.file);
    EXPECT_NE(message.find(file.reason), std::string::npos) << message;
    EXPECT_NE(message.find(std::filesystem::path(file.file).filename().string()), std::string::npos)
        << message;
  }
}

}  // namespace
}  // namespace pcv::test
