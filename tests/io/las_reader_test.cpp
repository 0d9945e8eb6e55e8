// LAS edge cases written by the tests: formats, versions, precision, and broken headers.
#include <gtest/gtest.h>

#include <cstring>

#include "io_test_util.hpp"
#include "pcv/core/host_memory.hpp"

namespace pcv::test {
namespace {

std::vector<SyntheticPoint> utmPoints(int n) {
  std::vector<SyntheticPoint> points;
  for (int i = 0; i < n; ++i) {
    SyntheticPoint p{500000.01 + i * 0.01, 5000000.02 + i * 0.03, 100.0 + i * 0.01};
    p.red = uint16_t(i * 256), p.green = 65535, p.blue = 0;
    p.intensity = uint16_t(i), p.classification = uint8_t(i % 19),
    p.returnNumber = uint8_t(1 + i % 5);
    points.push_back(p);
  }
  return points;
}

TEST(LasReader, KeepsCentimetresOfUtmCoordinates) {
  TempDir dir;
  const auto points = utmPoints(100);
  LasOptions options;
  options.offset[0] = 500000, options.offset[1] = 5000000;
  writeBytes(dir.file("utm.las"), makeLas(points, options));
  const PointCloud cloud = readPointCloud(dir.file("utm.las"));
  ASSERT_EQ(cloud.size(), points.size());
  for (size_t i = 0; i < points.size(); ++i) {
    const glm::dvec3 world =
        cloud.origin + glm::dvec3(cloud.points[i].x, cloud.points[i].y, cloud.points[i].z);
    EXPECT_NEAR(world.x, points[i].x, 1e-3);
    EXPECT_NEAR(world.y, points[i].y, 1e-3);
    EXPECT_NEAR(world.z, points[i].z, 1e-3);
  }
}

/// A LAS file declaring `count` 20-byte points whose records are a hole (a sparse file): the
/// size of a real huge file, with no disk or time spent on it.
std::filesystem::path sparseLas(const TempDir& dir, uint64_t count) {
  LasOptions options;
  options.minor = 4;  // the 64-bit point count
  options.pointFormat = 0;
  options.declaredCount = count;
  const std::filesystem::path path = dir.file("huge.las");
  writeBytes(path, makeLas({}, options));
  std::filesystem::resize_file(path, std::filesystem::file_size(path) + count * 20);
  return path;
}

TEST(LasReader, FileLargerThanMemoryIsRefusedBeforeDecoding) {
  TempDir dir;
  // 16 bytes per point and 4 per attribute (intensity, classification, return number, number of
  // returns): twice what the memory available holds, so other processes freeing memory meanwhile
  // change nothing.
  const uint64_t count = availableHostMemoryBytes() / 32 * 2;
  const std::filesystem::path path = sparseLas(dir, count);
  try {
    readPointCloud(path);
    FAIL() << "expected an OutOfMemoryError";
  } catch (const OutOfMemoryError& error) {
    EXPECT_NE(std::string(error.what()).find(std::to_string(count) + " x 32 bytes"),
              std::string::npos)
        << error.what();
    EXPECT_NE(std::string(error.what()).find("huge.las"), std::string::npos) << error.what();
  }
}

TEST(LasReader, DescribingAHugeFileReadsOnlyItsHeader) {
  TempDir dir;
  const uint64_t count = 3'000'000'000;  // 60 GB of records, none of them read
  const FileSummary summary = describePointFile(sparseLas(dir, count));
  EXPECT_TRUE(summary.fromHeader);
  EXPECT_EQ(summary.pointCount, count);
  // The header describes every field of point format 0, read or not.
  EXPECT_EQ(summary.attributes,
            std::vector<std::string>({"intensity", "classification", "return_number",
                                      "number_of_returns", "synthetic", "key_point", "withheld",
                                      "scan_direction", "edge_of_flight_line", "scan_angle",
                                      "user_data", "point_source_id"}));
  EXPECT_FALSE(summary.hasColor);
}

TEST(LasReader, BlackEverywhereMeansNoColorAndSaysSo) {
  TempDir dir;
  auto points = utmPoints(30);
  for (auto& p : points) p.red = p.green = p.blue = 0;
  writeBytes(dir.file("black.las"), makeLas(points));
  FileSummary summary;
  const PointCloud cloud = readPointCloud(dir.file("black.las"), nullptr, &summary);
  EXPECT_FALSE(cloud.hasColor);
  EXPECT_FALSE(summary.hasColor);
  ASSERT_EQ(summary.warnings.size(), 1u);
  EXPECT_NE(summary.warnings[0].find("coloured by elevation"), std::string::npos);
}

TEST(LasReader, BoundsOfHugeIntegerCoordinatesAreExact) {
  TempDir dir;
  const std::vector<SyntheticPoint> points = {
      {-2100000000.0, 17.0, -2000000000.0}, {2100000000.0, -2099999999.0, 5.0}, {3.0, 2.0, 1.0}};
  LasOptions options;
  options.scale = 1.0;
  writeBytes(dir.file("huge.las"), makeLas(points, options));
  const FileSummary summary = summarizePointCloud(dir.file("huge.las"));
  EXPECT_EQ(summary.worldBounds.min, glm::dvec3(-2100000000.0, -2099999999.0, -2000000000.0));
  EXPECT_EQ(summary.worldBounds.max, glm::dvec3(2100000000.0, 17.0, 5.0));
}

TEST(LasReader, FieldsBeyondTheDefaultOnesAreReadWhenAsked) {
  TempDir dir;
  const auto points = utmPoints(50);
  std::vector<uint8_t> file = makeLas(points);  // 1.2, point format 3, no VLR
  constexpr size_t kHeaderBytes = 227, kRecordBytes = 34, kGpsOffset = 20;
  // Microseconds at 3e8 seconds: a float would keep none of them.
  const auto gpsTime = [](size_t i) { return 3e8 + double(i) * 1.000001; };
  for (size_t i = 0; i < points.size(); ++i) {
    const double t = gpsTime(i);
    std::memcpy(file.data() + kHeaderBytes + i * kRecordBytes + kGpsOffset, &t, sizeof t);
  }
  writeBytes(dir.file("t.las"), file);
  // By default: no GPS time, whose doubles would cost 8 bytes a point.
  const PointCloud plain = readPointCloud(dir.file("t.las"));
  EXPECT_EQ(plain.findAttribute("gps_time"), nullptr);
  EXPECT_EQ(plain.attributes.size(), 4u);
  EXPECT_EQ(plain.lasPointFormat, 3);
  ReadOptions options;
  options.alsoDecode("gps_time");
  const PointCloud timed = readPointCloud(dir.file("t.las"), options, nullptr, nullptr);
  const ScalarAttribute* time = timed.findAttribute("gps_time");
  ASSERT_NE(time, nullptr);
  EXPECT_EQ(time->type, AttributeType::Float64);
  ASSERT_EQ(time->size(), points.size());
  for (size_t i = 0; i < points.size(); ++i) EXPECT_EQ(time->value(i), gpsTime(i)) << i;
  EXPECT_EQ(timed.findAttribute("classification")->type, AttributeType::UInt8);
  options = {};
  options.allAttributes = true;
  // Point format 3's 13 fields, and its 16-bit colour channels as the file holds them.
  const PointCloud every = readPointCloud(dir.file("t.las"), options, nullptr, nullptr);
  EXPECT_EQ(every.attributes.size(), 16u);
  ASSERT_NE(every.findAttribute("red"), nullptr);
  EXPECT_EQ(every.findAttribute("red")->type, AttributeType::UInt16);
}

TEST(LasReader, ReadsEveryPointFormatAndVersion) {
  TempDir dir;
  const auto points = utmPoints(20);
  for (int format = 0; format <= 10; ++format) {
    for (int minor : {0, 2, 3, 4}) {
      if (format >= 6 && minor < 4) continue;
      SCOPED_TRACE("1." + std::to_string(minor) + " format " + std::to_string(format));
      LasOptions options;
      options.minor = minor, options.pointFormat = format;
      writeBytes(dir.file("f.las"), makeLas(points, options));
      const PointCloud cloud = readPointCloud(dir.file("f.las"));
      ASSERT_EQ(cloud.size(), points.size());
      const bool rgb =
          format == 2 || format == 3 || format == 5 || format == 7 || format == 8 || format == 10;
      EXPECT_EQ(cloud.hasColor, rgb);
      if (rgb) {
        EXPECT_EQ(cloud.points[3].rgba, packRgba(3, 255, 0));  // 16-bit scaled to 8
      }
      EXPECT_FLOAT_EQ(cloud.findAttribute("intensity")->values[7], 7.0f);
      EXPECT_FLOAT_EQ(cloud.findAttribute("classification")->values[18], 18.0f);
      EXPECT_FLOAT_EQ(cloud.findAttribute("return_number")->values[3], 4.0f);
      // makeLas writes one return per pulse (bits 3-5 legacy, 4-7 extended).
      EXPECT_FLOAT_EQ(cloud.findAttribute("number_of_returns")->values[3], 1.0f);
    }
  }
}

TEST(LasReader, DetectsEightBitColorsInSixteenBitFields) {
  TempDir dir;
  auto points = utmPoints(3);
  for (auto& p : points) p.red = 200, p.green = 100, p.blue = 50;
  writeBytes(dir.file("c.las"), makeLas(points));
  EXPECT_EQ(readPointCloud(dir.file("c.las")).points[0].rgba, packRgba(200, 100, 50));
}

TEST(LasReader, ToleratesExtraBytesPerRecord) {
  TempDir dir;
  LasOptions options;
  options.extraBytes = 7;
  writeBytes(dir.file("e.las"), makeLas(utmPoints(10), options));
  EXPECT_EQ(readPointCloud(dir.file("e.las")).size(), 10u);
}

TEST(LasReader, ReadsTheWholeRecordsOfATruncatedFileWithAWarning) {
  TempDir dir;
  auto bytes = makeLas(utmPoints(10));
  bytes.resize(bytes.size() - 5);  // the last record cut short
  writeBytes(dir.file("t.las"), bytes);
  FileSummary summary;
  const PointCloud cloud = readPointCloud(dir.file("t.las"), ReadOptions{}, nullptr, &summary);
  EXPECT_EQ(cloud.size(), 9u);
  EXPECT_EQ(summary.missingPoints, 1u);
  EXPECT_EQ(summary.warnings.size(), 1u);
  // The header alone says so too, declaring the count it states.
  const FileSummary described = describePointFile(dir.file("t.las"));
  EXPECT_EQ(described.pointCount, 10u);
  EXPECT_EQ(described.missingPoints, 1u);
  EXPECT_EQ(described.warnings.size(), 1u);
}

TEST(LasReader, RejectsTruncatedPointDataWhenStrict) {
  TempDir dir;
  auto bytes = makeLas(utmPoints(10));
  bytes.resize(bytes.size() - 5);
  writeBytes(dir.file("t.las"), bytes);
  ReadOptions strict;
  strict.strict = true;
  EXPECT_THROW(readPointCloud(dir.file("t.las"), strict, nullptr, nullptr), InputError);
  strict.headerOnly = true;
  EXPECT_THROW(readPointCloud(dir.file("t.las"), strict, nullptr, nullptr), InputError);
}

TEST(LasReader, RejectsTruncatedHeader) {
  TempDir dir;
  auto bytes = makeLas(utmPoints(1));
  bytes.resize(100);
  writeBytes(dir.file("h.las"), bytes);
  EXPECT_NE(inputErrorOf(dir.file("h.las")).find("header"), std::string::npos);
}

TEST(LasReader, HugeCountIsMemorySafe) {
  TempDir dir;
  LasOptions options;
  options.minor = 4, options.pointFormat = 6;
  options.declaredCount = ~0ull - 1;  // times the record size overflows 64 bits
  writeBytes(dir.file("huge.las"), makeLas(utmPoints(2), options));
  FileSummary summary;
  EXPECT_EQ(readPointCloud(dir.file("huge.las"), ReadOptions{}, nullptr, &summary).size(), 2u);
  EXPECT_EQ(summary.missingPoints, ~0ull - 3);
  ReadOptions strict;
  strict.strict = true;
  EXPECT_THROW(readPointCloud(dir.file("huge.las"), strict, nullptr, nullptr), InputError);
}

TEST(LasReader, RejectsCompressedPointFormatWithoutLaszipVlr) {
  TempDir dir;
  auto bytes = makeLas(utmPoints(2));
  bytes[104] |= 0x80;
  writeBytes(dir.file("x.laz"), bytes);
  const std::string message = inputErrorOf(dir.file("x.laz"));
  EXPECT_NE(message.find("byte 104"), std::string::npos) << message;
  EXPECT_NE(message.find("no LASzip VLR"), std::string::npos) << message;
}

TEST(LasReader, RejectsZeroScaleAndUnknownFormat) {
  TempDir dir;
  LasOptions options;
  options.scale = 0.0;
  writeBytes(dir.file("s.las"), makeLas(utmPoints(2), options));
  EXPECT_NE(inputErrorOf(dir.file("s.las")).find("scale"), std::string::npos);
  auto bytes = makeLas(utmPoints(2));
  bytes[104] = 11;
  writeBytes(dir.file("f.las"), bytes);
  EXPECT_NE(inputErrorOf(dir.file("f.las")).find("format 11"), std::string::npos);
}

TEST(LasReader, RejectsRecordLengthShorterThanFormat) {
  TempDir dir;
  auto bytes = makeLas(utmPoints(2));
  bytes[105] = 10, bytes[106] = 0;
  writeBytes(dir.file("r.las"), bytes);
  EXPECT_NE(inputErrorOf(dir.file("r.las")).find("record length"), std::string::npos);
}

TEST(LasReader, ReportsProgressAndHonoursCancel) {
  TempDir dir;
  writeBytes(dir.file("p.las"), makeLas(utmPoints(1000)));
  LoadProgress progress;
  readPointCloud(dir.file("p.las"), &progress);
  EXPECT_EQ(progress.bytesDone.load(), progress.bytesTotal.load());
  EXPECT_DOUBLE_EQ(progress.fraction(), 1.0);
  LoadProgress cancelled;
  cancelled.cancel = true;
  EXPECT_THROW(readPointCloud(dir.file("p.las"), &cancelled), LoadCancelled);
}

}  // namespace
}  // namespace pcv::test
