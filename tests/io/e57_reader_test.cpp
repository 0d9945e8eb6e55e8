// E57 files written by the test writer with known answers: every field type and bit width,
// values across packet boundaries, poses, spherical coordinates, invalid states, colour and
// intensity limits, several scans merged or one picked, attributes, progressive prefixes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <numbers>
#include <random>

#include "e57_test_util.hpp"

namespace pcv::test {
namespace {

using e57::FieldType;

TEST(E57Reader, ReadsSingleAndDoubleCartesianScans) {
  TempDir dir;
  for (bool single : {true, false}) {
    SCOPED_TRACE(single ? "single" : "double");
    auto position = [](uint64_t r) {
      return glm::dvec3(0.25 * double(r), -0.5 * double(r), 1.0 + 0.125 * double(r));
    };
    const PointCloud cloud = readE57Bytes(dir, e57::makeE57({floatScan(100, position, single)}));
    ASSERT_EQ(cloud.size(), 100u);
    EXPECT_FALSE(cloud.hasColor);
    for (size_t i = 0; i < cloud.size(); ++i) {
      EXPECT_EQ(worldOf(cloud, i), position(i)) << i;
      EXPECT_EQ(cloud.points[i].rgba, packRgba(255, 255, 255));
    }
  }
}

// A window of 2^20 values placed high in each width's range: every bit of the raw value matters
// for the result, and the offsets from the cloud's origin stay exact in float.
TEST(E57Reader, ReadsIntegersOfEveryBitWidth) {
  TempDir dir;
  std::mt19937_64 random(3);
  for (unsigned width = 1; width <= 64; ++width) {
    SCOPED_TRACE("width " + std::to_string(width));
    const int64_t minimum =
        width == 64 ? std::numeric_limits<int64_t>::min() : -(int64_t(1) << (width - 1));
    const uint64_t span = width == 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1;
    const int64_t maximum = int64_t(uint64_t(minimum) + span);
    const uint64_t window = std::min<uint64_t>(span, (1u << 20) - 1);
    const uint64_t base = span - window;  // the top of the range
    std::vector<int64_t> raw(300);
    for (int64_t& v : raw) v = int64_t(uint64_t(minimum) + base + random() % (window + 1));
    e57::Scan scan;
    scan.records = raw.size();
    scan.fields = {
        e57::integerField("cartesianX", minimum, maximum, [&](uint64_t r) { return raw[r]; }),
        e57::integerField("cartesianY", minimum, maximum,
                          [&](uint64_t r) { return raw[(r + 1) % raw.size()]; }),
        e57::floatField("cartesianZ", [](uint64_t) { return 0.0; })};
    const PointCloud cloud = readE57Bytes(dir, e57::makeE57({scan}, {.recordsPerPacket = 37}));
    ASSERT_EQ(cloud.size(), raw.size());
    for (size_t i = 0; i < raw.size(); ++i) {
      // Exact while doubles hold the integers (53 bits), to a double's rounding above.
      const double expectedX = double(raw[i]), expectedY = double(raw[(i + 1) % raw.size()]);
      const double tolerance = std::abs(expectedX) * 0x1p-52 + std::abs(expectedY) * 0x1p-52;
      ASSERT_NEAR(worldOf(cloud, i).x, expectedX, tolerance) << i;
      ASSERT_NEAR(worldOf(cloud, i).y, expectedY, tolerance) << i;
    }
  }
}

TEST(E57Reader, ReadsScaledIntegers) {
  TempDir dir;
  e57::Scan scan;
  scan.records = 1000;
  auto raw = [](uint64_t r) { return int64_t(r * 7919 % 524288) - 262144; };  // 19 bits
  for (int axis = 0; axis < 3; ++axis) {
    scan.fields.push_back(e57::scaledField(std::string("cartesian") + char('X' + axis), -262144,
                                           262143, 0.001, 100.0 * axis, raw));
  }
  const PointCloud cloud = readE57Bytes(dir, e57::makeE57({scan}));
  ASSERT_EQ(cloud.size(), 1000u);
  for (size_t i = 0; i < cloud.size(); ++i) {
    for (int axis = 0; axis < 3; ++axis) {
      // Float offsets of up to 400 from the origin: 3e-5 steps, well below the 0.001 of a raw
      // step.
      EXPECT_NEAR(worldOf(cloud, i)[axis], double(raw(i)) * 0.001 + 100.0 * axis, 1e-4) << i;
    }
  }
}

// Small packets: 19-bit values straddle the packet boundaries, with an ignored packet between
// the data packets and an index packet after them; every run of records still decodes exactly,
// on one thread or several.
TEST(E57Reader, DecodesValuesAcrossPacketBoundaries) {
  TempDir dir;
  constexpr uint64_t kRecords = 200000;
  e57::Scan scan;
  scan.records = kRecords;
  auto raw = [](uint64_t r) { return int64_t((r * 2654435761u) % 524288); };
  scan.fields = {
      e57::integerField("cartesianX", 0, 524287, raw),
      e57::integerField("cartesianY", 0, 524287, [&](uint64_t r) { return raw(r + 1); }),
      e57::integerField("cartesianZ", -3, 3, [](uint64_t r) { return int64_t(r % 7) - 3; }),
      e57::integerField("cartesianInvalidState", 0, 0, [](uint64_t) { return 0; })};
  const std::vector<uint8_t> bytes =
      e57::makeE57({scan}, {.maxPacketBytes = 1000, .ignoredPacket = true, .indexPacket = true});
  for (const char* threads : {"1", "3"}) {
    SCOPED_TRACE(std::string("threads ") + threads);
    setenv("PCV_THREADS", threads, 1);
    const PointCloud cloud = readE57Bytes(dir, bytes);
    unsetenv("PCV_THREADS");
    ASSERT_EQ(cloud.size(), kRecords);
    for (size_t i = 0; i < kRecords; ++i) {
      const glm::dvec3 expected(double(raw(i)), double(raw(i + 1)), double(int64_t(i % 7) - 3));
      ASSERT_EQ(worldOf(cloud, i), expected) << i;
    }
  }
}

TEST(E57Reader, ZeroWidthFieldsHoldTheirMinimum) {
  TempDir dir;
  e57::Scan scan = floatScan(10, [](uint64_t r) { return glm::dvec3(double(r), 0, 0); });
  scan.fields[2] = e57::scaledField("cartesianZ", 40, 40, 0.5, 1.0, [](uint64_t) { return 40; });
  const PointCloud cloud = readE57Bytes(dir, e57::makeE57({scan}));
  ASSERT_EQ(cloud.size(), 10u);
  for (size_t i = 0; i < cloud.size(); ++i) EXPECT_EQ(worldOf(cloud, i).z, 21.0);
}

TEST(E57Reader, DropsPointsWithAnInvalidState) {
  TempDir dir;
  e57::Scan scan = floatScan(30, [](uint64_t r) { return glm::dvec3(double(r), 1, 2); });
  // 0 valid, 1 direction only, 2 invalid: only 0 is a position.
  scan.fields.push_back(
      e57::integerField("cartesianInvalidState", 0, 2, [](uint64_t r) { return int64_t(r % 3); }));
  FileSummary summary;
  const PointCloud cloud = readE57Bytes(dir, e57::makeE57({scan}), {}, &summary);
  ASSERT_EQ(cloud.size(), 10u);
  for (size_t i = 0; i < cloud.size(); ++i) EXPECT_EQ(worldOf(cloud, i).x, 3.0 * double(i));
  EXPECT_EQ(summary.droppedPoints, 0u);  // invalid records are not NaN coordinates
  const std::string notes = ::testing::PrintToString(summary.notes);
  EXPECT_NE(notes.find("20 records flagged by cartesianInvalidState"), std::string::npos) << notes;
}

TEST(E57Reader, ConvertsSphericalCoordinatesToCartesian) {
  TempDir dir;
  struct Case {
    double range, azimuth, elevation;
    glm::dvec3 expected;
  };
  const double pi = std::numbers::pi;
  const std::vector<Case> cases = {{2.0, 0.0, 0.0, {2, 0, 0}},
                                   {2.0, pi / 2, 0.0, {0, 2, 0}},
                                   {3.0, pi, 0.0, {-3, 0, 0}},
                                   {1.0, 0.0, pi / 2, {0, 0, 1}},
                                   {4.0, pi / 4, -pi / 6, {std::sqrt(6.0), std::sqrt(6.0), -2}},
                                   {5.0, 1.0, 1.0, {0, 0, 0}}};
  e57::Scan scan;
  scan.records = cases.size();
  scan.fields = {e57::floatField(
                     "sphericalRange", [&](uint64_t r) { return cases[r].range; }, false),
                 e57::floatField(
                     "sphericalAzimuth", [&](uint64_t r) { return cases[r].azimuth; }, false),
                 e57::floatField(
                     "sphericalElevation", [&](uint64_t r) { return cases[r].elevation; }, false),
                 // The last record has a direction but no range: dropped.
                 e57::integerField("sphericalInvalidState", 0, 2,
                                   [&](uint64_t r) { return r + 1 == cases.size() ? 1 : 0; })};
  const PointCloud cloud = readE57Bytes(dir, e57::makeE57({scan}));
  ASSERT_EQ(cloud.size(), cases.size() - 1);
  for (size_t i = 0; i < cloud.size(); ++i) {
    const glm::dvec3 world = worldOf(cloud, i);
    for (int axis = 0; axis < 3; ++axis) {
      EXPECT_NEAR(world[axis], cases[i].expected[axis], 1e-6) << "case " << i << " axis " << axis;
    }
  }
}

// A scan 500 km east, rotated 90 degrees about z: the pose is applied in double precision, so
// the points keep their millimetres far from the file's origin.
TEST(E57Reader, AppliesThePoseInDoublePrecision) {
  TempDir dir;
  e57::Scan scan = floatScan(
      50, [](uint64_t r) { return glm::dvec3(1.0 + 0.001 * double(r), 2.0, 0.5 * double(r % 3)); });
  const double half = std::sqrt(0.5);
  scan.rotation = {half, 0.0, 0.0, half};  // 90 degrees about +z: x -> y, y -> -x
  scan.translation = {500000.0, 5000000.0, 100.0};
  const PointCloud cloud = readE57Bytes(dir, e57::makeE57({scan}));
  ASSERT_EQ(cloud.size(), 50u);
  for (size_t i = 0; i < cloud.size(); ++i) {
    const glm::dvec3 local(1.0 + 0.001 * double(i), 2.0, 0.5 * double(i % 3));
    const glm::dvec3 expected(500000.0 - local.y, 5000000.0 + local.x, 100.0 + local.z);
    const glm::dvec3 world = worldOf(cloud, i);
    for (int axis = 0; axis < 3; ++axis) EXPECT_NEAR(world[axis], expected[axis], 1e-4) << i;
  }
}

TEST(E57Reader, TranslationWithoutRotationOrRotationWithoutTranslation) {
  TempDir dir;
  e57::Scan moved = floatScan(3, [](uint64_t r) { return glm::dvec3(double(r), 0, 0); });
  moved.translation = {10.0, 20.0, 30.0};
  e57::Scan turned = floatScan(3, [](uint64_t r) { return glm::dvec3(double(r), 0, 0); });
  turned.rotation = {0.0, 0.0, 0.0, 1.0};  // 180 degrees about z
  ReadOptions first, second;
  first.scan = 0, second.scan = 1;
  const std::vector<uint8_t> bytes = e57::makeE57({moved, turned});
  const PointCloud a = readE57Bytes(dir, bytes, first);
  const PointCloud b = readE57Bytes(dir, bytes, second);
  ASSERT_EQ(a.size(), 3u);
  ASSERT_EQ(b.size(), 3u);
  EXPECT_EQ(worldOf(a, 2), glm::dvec3(12, 20, 30));
  EXPECT_NEAR(worldOf(b, 2).x, -2.0, 1e-12);
  EXPECT_NEAR(worldOf(b, 2).y, 0.0, 1e-12);
}

e57::Scan coloredScan(uint64_t records, int64_t maximum) {
  e57::Scan scan = floatScan(records, [](uint64_t r) { return glm::dvec3(double(r), 0, 0); });
  for (const char* channel : {"colorRed", "colorGreen", "colorBlue"}) {
    scan.fields.push_back(e57::integerField(
        channel, 0, maximum, [maximum](uint64_t r) { return int64_t(r) % (maximum + 1); }));
  }
  return scan;
}

TEST(E57Reader, ScalesColorsByTheirLimits) {
  TempDir dir;
  // 10-bit colours with colorLimits 0..1023: 1023 is 255, 512 is 128.
  e57::Scan limited = coloredScan(1024, 1023);
  limited.extraXml =
      "<colorLimits type=\"Structure\"><colorRedMinimum type=\"Integer\"/><colorRedMaximum "
      "type=\"Integer\">1023</colorRedMaximum><colorGreenMinimum type=\"Integer\"/>"
      "<colorGreenMaximum type=\"Integer\">1023</colorGreenMaximum><colorBlueMinimum "
      "type=\"Integer\"/><colorBlueMaximum type=\"Integer\">1023</colorBlueMaximum>"
      "</colorLimits>";
  PointCloud cloud = readE57Bytes(dir, e57::makeE57({limited}));
  ASSERT_EQ(cloud.size(), 1024u);
  EXPECT_TRUE(cloud.hasColor);
  EXPECT_EQ(cloud.points[1023].rgba, packRgba(255, 255, 255));
  EXPECT_EQ(cloud.points[512].rgba, packRgba(128, 128, 128));
  EXPECT_EQ(cloud.points[0].rgba, packRgba(0, 0, 0));

  // Without colorLimits the prototype's range is the limit: 0..65535.
  cloud = readE57Bytes(dir, e57::makeE57({coloredScan(70000, 65535)}));
  EXPECT_EQ(cloud.points[65535].rgba, packRgba(255, 255, 255));
  EXPECT_EQ(cloud.points[257 * 100].rgba, packRgba(100, 100, 100));

  // Float colours with no limits anywhere are taken as 0..1.
  e57::Scan floats = floatScan(3, [](uint64_t r) { return glm::dvec3(double(r), 0, 0); });
  for (const char* channel : {"colorRed", "colorGreen", "colorBlue"}) {
    floats.fields.push_back(e57::floatField(channel, [](uint64_t r) { return 0.5 * double(r); }));
  }
  cloud = readE57Bytes(dir, e57::makeE57({floats}));
  EXPECT_EQ(cloud.points[1].rgba, packRgba(128, 128, 128));
  EXPECT_EQ(cloud.points[2].rgba, packRgba(255, 255, 255));
}

TEST(E57Reader, ScalesIntensityByItsLimits) {
  TempDir dir;
  e57::Scan scan = floatScan(5, [](uint64_t r) { return glm::dvec3(double(r), 0, 0); });
  scan.fields.push_back(e57::scaledField("intensity", 0, 4000, 0.5, 0.0,
                                         [](uint64_t r) { return int64_t(r) * 1000; }));
  // Stated limits 0..1000 (in values, i.e. raw 0..2000): raw 1000 = 500 = 0.5.
  scan.extraXml =
      "<intensityLimits type=\"Structure\"><intensityMinimum type=\"Float\">0</intensityMinimum>"
      "<intensityMaximum type=\"Float\">1000</intensityMaximum></intensityLimits>";
  PointCloud cloud = readE57Bytes(dir, e57::makeE57({scan}));
  const ScalarAttribute* intensity = cloud.findAttribute("intensity");
  ASSERT_NE(intensity, nullptr);
  EXPECT_FLOAT_EQ(intensity->values[1], 0.5f);
  EXPECT_FLOAT_EQ(intensity->values[2], 1.0f);

  // Without intensityLimits the prototype's range (0..2000 in values) is the limit.
  scan.extraXml.clear();
  cloud = readE57Bytes(dir, e57::makeE57({scan}));
  intensity = cloud.findAttribute("intensity");
  ASSERT_NE(intensity, nullptr);
  EXPECT_FLOAT_EQ(intensity->values[1], 0.25f);
  EXPECT_FLOAT_EQ(intensity->values[4], 1.0f);
}

TEST(E57Reader, KeepsReturnRowColumnAndTimeAsAttributes) {
  TempDir dir;
  e57::Scan scan = floatScan(20, [](uint64_t r) { return glm::dvec3(double(r), 0, 0); });
  scan.fields.push_back(e57::integerField("returnIndex", 0, 3, [](uint64_t r) { return r % 4; }));
  scan.fields.push_back(e57::integerField("returnCount", 1, 4, [](uint64_t) { return 4; }));
  scan.fields.push_back(e57::integerField("rowIndex", 0, 1999, [](uint64_t r) { return r * 100; }));
  scan.fields.push_back(e57::integerField("columnIndex", 0, 9, [](uint64_t r) { return r / 2; }));
  scan.fields.push_back(e57::floatField(
      "timeStamp", [](uint64_t r) { return 0.25 * double(r); }, false));
  scan.fields.push_back(
      e57::integerField("isTimeStampInvalid", 0, 1, [](uint64_t r) { return r == 3; }));
  const PointCloud cloud = readE57Bytes(dir, e57::makeE57({scan}));
  ASSERT_EQ(cloud.size(), 20u);
  std::vector<std::string> names;
  for (const auto& attribute : cloud.attributes) names.push_back(attribute.name);
  EXPECT_EQ(names, (std::vector<std::string>{"return_index", "return_count", "row_index",
                                             "column_index", "time_stamp"}));
  EXPECT_EQ(cloud.findAttribute("return_index")->values[7], 3.0f);
  EXPECT_EQ(cloud.findAttribute("return_count")->values[7], 4.0f);
  EXPECT_EQ(cloud.findAttribute("row_index")->values[7], 700.0f);
  EXPECT_EQ(cloud.findAttribute("column_index")->values[7], 3.0f);
  EXPECT_EQ(cloud.findAttribute("time_stamp")->values[7], 1.75f);
  EXPECT_TRUE(std::isnan(cloud.findAttribute("time_stamp")->values[3]));
}

TEST(E57Reader, DecodesOnlyTheAttributesAndColorsAskedFor) {
  TempDir dir;
  e57::Scan scan = coloredScan(10, 255);
  scan.fields.push_back(e57::integerField("rowIndex", 0, 9, [](uint64_t r) { return r; }));
  scan.fields.push_back(e57::floatField("intensity", [](uint64_t) { return 0.5; }));
  ReadOptions options;
  options.attributes = {"row_index"};
  options.colors = false;
  const PointCloud cloud = readE57Bytes(dir, e57::makeE57({scan}), options);
  ASSERT_EQ(cloud.attributes.size(), 1u);
  EXPECT_EQ(cloud.attributes[0].name, "row_index");
  EXPECT_FALSE(cloud.hasColor);
}

// Two scans with different prototypes and poses merge into one cloud in file order: colours
// where a scan has them (white where not), intensity NaN for the scan without, and a scan_index
// attribute saying where each point came from.
TEST(E57Reader, MergesScansWithTheirPoses) {
  TempDir dir;
  e57::Scan first = coloredScan(4, 255);
  first.translation = {1000.0, 0.0, 0.0};
  e57::Scan second = floatScan(3, [](uint64_t r) { return glm::dvec3(0, double(r), 0); });
  second.fields.push_back(e57::floatField(
      "intensity", [](uint64_t) { return 0.5; }, true));
  second.fields.back().xmlAttributes = " minimum=\"0\" maximum=\"1\"";
  second.rotation = {0.0, 1.0, 0.0, 0.0};  // 180 degrees about x: y -> -y
  second.translation = {2000.0, 0.0, 10.0};
  FileSummary summary;
  const PointCloud cloud = readE57Bytes(dir, e57::makeE57({first, second}), {}, &summary);
  ASSERT_EQ(cloud.size(), 7u);
  EXPECT_TRUE(cloud.hasColor);
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(worldOf(cloud, i), glm::dvec3(1000.0 + double(i), 0, 0));
    EXPECT_EQ(cloud.points[i].rgba, packRgba(uint32_t(i), uint32_t(i), uint32_t(i)));
  }
  for (size_t i = 0; i < 3; ++i) {
    const glm::dvec3 world = worldOf(cloud, 4 + i);
    EXPECT_NEAR(world.x, 2000.0, 1e-9);
    EXPECT_NEAR(world.y, -double(i), 1e-9);
    EXPECT_NEAR(world.z, 10.0, 1e-9);
    EXPECT_EQ(cloud.points[4 + i].rgba, packRgba(255, 255, 255));
  }
  const ScalarAttribute* intensity = cloud.findAttribute("intensity");
  const ScalarAttribute* scanIndex = cloud.findAttribute("scan_index");
  ASSERT_NE(intensity, nullptr);
  ASSERT_NE(scanIndex, nullptr);
  EXPECT_TRUE(std::isnan(intensity->values[0]));
  EXPECT_FLOAT_EQ(intensity->values[5], 0.5f);
  EXPECT_EQ(scanIndex->values[3], 0.0f);
  EXPECT_EQ(scanIndex->values[4], 1.0f);
  EXPECT_EQ(summary.format, "E57");
  EXPECT_NE(summary.details.find("2 scans"), std::string::npos) << summary.details;
}

TEST(E57Reader, ReadsOnlyTheScanAskedFor) {
  TempDir dir;
  const std::vector<uint8_t> bytes =
      e57::makeE57({floatScan(4, [](uint64_t r) { return glm::dvec3(double(r), 0, 0); }),
                    floatScan(6, [](uint64_t r) { return glm::dvec3(100.0 + double(r), 0, 0); })});
  ReadOptions options;
  options.scan = 1;
  FileSummary summary;
  const PointCloud cloud = readE57Bytes(dir, bytes, options, &summary);
  ASSERT_EQ(cloud.size(), 6u);
  EXPECT_EQ(worldOf(cloud, 0).x, 100.0);
  EXPECT_EQ(cloud.findAttribute("scan_index"), nullptr);
  EXPECT_NE(summary.details.find("scan 1 of 2"), std::string::npos) << summary.details;

  options.scan = 2;
  const std::string message = e57ErrorOf(dir, bytes, options);
  EXPECT_NE(message.find("scan 2 asked for, but the file has 2 (0 to 1)"), std::string::npos)
      << message;
}

TEST(E57Reader, IgnoresImagesAndUnknownExtensions) {
  TempDir dir;
  e57::Scan scan = floatScan(2, [](uint64_t r) { return glm::dvec3(double(r), 0, 0); });
  scan.fields.push_back(e57::floatField("nor:normalX", [](uint64_t) { return 1.0; }));
  scan.extraXml = "<nor:scanQuality type=\"Float\">0.9</nor:scanQuality>";
  const std::vector<uint8_t> bytes = e57::makeE57(
      {scan},
      {.rootExtraXml = "<images2D type=\"Vector\" allowHeterogeneousChildren=\"1\"><vectorChild "
                       "type=\"Structure\"><visualReferenceRepresentation type=\"Structure\">"
                       "<jpegImage type=\"Blob\" fileOffset=\"0\" length=\"0\"/>"
                       "</visualReferenceRepresentation></vectorChild></images2D>",
       .editXml = [](std::string xml) {
         const std::string root = "<e57Root type=\"Structure\"";
         return xml.replace(xml.find(root), root.size(),
                            root + " xmlns:nor=\"http://www.libe57.org/E57_EXT_surface_normals\"");
       }});
  FileSummary summary;
  const PointCloud cloud = readE57Bytes(dir, bytes, {}, &summary);
  EXPECT_EQ(cloud.size(), 2u);
  EXPECT_NE(summary.details.find("1 image (not shown)"), std::string::npos) << summary.details;
}

TEST(E57Reader, ZeroRecordScanIsAnEmptyCloud) {
  TempDir dir;
  const PointCloud cloud =
      readE57Bytes(dir, e57::makeE57({floatScan(0, [](uint64_t) { return glm::dvec3(0); })}));
  EXPECT_EQ(cloud.size(), 0u);
}

TEST(E57Reader, DescribesEveryScanForInfo) {
  TempDir dir;
  e57::Scan first = floatScan(4, [](uint64_t r) { return glm::dvec3(double(r), 0, 0); });
  first.name = "north";
  first.translation = {1.0, 2.0, 3.0};
  first.extraXml =
      "<cartesianBounds type=\"Structure\"><xMinimum type=\"Float\">0</xMinimum><xMaximum "
      "type=\"Float\">3</xMaximum><yMinimum type=\"Float\"/><yMaximum type=\"Float\"/>"
      "<zMinimum type=\"Float\"/><zMaximum type=\"Float\"/></cartesianBounds>";
  e57::Scan second = coloredScan(2, 255);
  second.name = "south";
  writeBytes(dir.file("two.e57"), e57::makeE57({first, second}));
  const FileSummary summary = summarizePointCloud(dir.file("two.e57"));
  std::string notes;
  for (const std::string& line : summary.notes) notes += line + "\n";
  EXPECT_NE(notes.find("scan 0:     \"north\", 4 records"), std::string::npos) << notes;
  EXPECT_NE(notes.find("pose translation (1, 2, 3)"), std::string::npos) << notes;
  EXPECT_NE(notes.find("bounds (0, 0, 0) .. (3, 0, 0)"), std::string::npos) << notes;
  EXPECT_NE(notes.find("scan 1:     \"south\", 2 records"), std::string::npos) << notes;
  EXPECT_NE(notes.find("colorRed, colorGreen, colorBlue: Integer 0..255"), std::string::npos)
      << notes;
}

// With a listener, the reader publishes growing prefixes of the merged cloud, the last one all
// of it, and every published point is final.
TEST(E57Reader, PublishesGrowingPrefixesOfAllScans) {
  TempDir dir;
  constexpr uint64_t kRecords = 400000;
  auto position = [](uint64_t r) { return glm::dvec3(double(r % 1000), double(r / 1000), 1.0); };
  const std::vector<uint8_t> bytes =
      e57::makeE57({floatScan(kRecords, position, true), floatScan(kRecords, position, true)});
  LoadProgress progress;
  std::vector<uint64_t> sizes;
  std::vector<Point> copied;
  progress.onPrefix = [&](const PointPrefix& prefix) {
    sizes.push_back(prefix.points.size());
    copied.assign(prefix.points.begin(), prefix.points.end());
  };
  const PointCloud cloud = readE57Bytes(dir, bytes, {}, nullptr, &progress);
  ASSERT_EQ(cloud.size(), 2 * kRecords);
  ASSERT_GE(sizes.size(), 2u);
  EXPECT_TRUE(std::is_sorted(sizes.begin(), sizes.end()));
  EXPECT_EQ(sizes.back(), 2 * kRecords);
  EXPECT_EQ(progress.pointsReady.load(), 2 * kRecords);
  EXPECT_EQ(progress.bytesDone.load(), progress.bytesTotal.load());
  ASSERT_EQ(copied.size(), cloud.size());
  EXPECT_EQ(std::memcmp(copied.data(), cloud.points.data(), copied.size() * sizeof(Point)), 0);
}

TEST(E57Reader, StopsWhenCancelled) {
  TempDir dir;
  const std::vector<uint8_t> bytes =
      e57::makeE57({floatScan(300000, [](uint64_t r) { return glm::dvec3(double(r), 0, 0); })});
  LoadProgress progress;
  progress.cancel = true;
  writeBytes(dir.file("cancel.e57"), bytes);
  EXPECT_THROW(readPointCloud(dir.file("cancel.e57"), &progress), LoadCancelled);
}

}  // namespace
}  // namespace pcv::test
