// PLY edge cases written by the tests.
#include <gtest/gtest.h>

#include <cmath>

#include "io_test_util.hpp"

namespace pcv::test {
namespace {

std::vector<SyntheticPoint> somePoints(int n) {
  std::vector<SyntheticPoint> points;
  for (int i = 0; i < n; ++i) {
    SyntheticPoint p{i * 0.5, -i * 0.25, 3.0 + i};
    p.red = uint16_t(i), p.green = 2, p.blue = 250, p.intensity = uint16_t(10 * i);
    points.push_back(p);
  }
  return points;
}

TEST(PlyReader, ReadsBinaryWithColorsAndAttributes) {
  TempDir dir;
  writeBytes(dir.file("a.ply"), makeBinaryPly(somePoints(50), false, 4));
  const PointCloud cloud = readPointCloud(dir.file("a.ply"));
  ASSERT_EQ(cloud.size(), 50u);
  EXPECT_TRUE(cloud.hasColor);
  EXPECT_EQ(cloud.points[7].rgba, packRgba(7, 2, 250));
  EXPECT_FLOAT_EQ(cloud.findAttribute("intensity")->values[7], 70.0f);
  EXPECT_NEAR(cloud.origin.z + cloud.points[7].z, 10.0, 1e-6);
}

TEST(PlyReader, SkipsFacesDeclaredBeforeVertices) {
  TempDir dir;
  writeBytes(dir.file("f.ply"), makeBinaryPly(somePoints(5), true, 3));
  const PointCloud cloud = readPointCloud(dir.file("f.ply"));
  ASSERT_EQ(cloud.size(), 5u);
  EXPECT_NEAR(cloud.origin.x + cloud.points[4].x, 2.0, 1e-6);
}

TEST(PlyReader, ReadsEveryScalarTypeInAsciiAndBothEndians) {
  const char* types[] = {"char",  "uchar",  "short",   "ushort", "int",   "uint",
                         "float", "double", "int8",    "uint8",  "int16", "uint16",
                         "int32", "uint32", "float32", "float64"};
  const int sizes[] = {1, 1, 2, 2, 4, 4, 4, 8, 1, 1, 2, 2, 4, 4, 4, 8};
  TempDir dir;
  for (int t = 0; t < 16; ++t) {
    SCOPED_TRACE(types[t]);
    const std::string props = std::string("property ") + types[t] + " x\nproperty " + types[t] +
                              " y\nproperty " + types[t] + " z\n";
    writeText(dir.file("a.ply"),
              "ply\nformat ascii 1.0\nelement vertex 2\n" + props + "end_header\n1 2 3\n4 5 6\n");
    const PointCloud ascii = readPointCloud(dir.file("a.ply"));
    ASSERT_EQ(ascii.size(), 2u);
    EXPECT_NEAR(ascii.origin.y + ascii.points[1].y, 5.0, 1e-6);
    for (bool big : {false, true}) {
      std::string header = std::string("ply\nformat ") +
                           (big ? "binary_big_endian" : "binary_little_endian") +
                           " 1.0\nelement vertex 2\n" + props + "end_header\n";
      ByteWriter w;
      w.bytes.assign(header.begin(), header.end());
      for (int v = 1; v <= 6; ++v) {
        uint8_t raw[8] = {};
        if (t == 6 || t == 14) {
          float f = float(v);
          std::memcpy(raw, &f, 4);
        } else if (t == 7 || t == 15) {
          double d = v;
          std::memcpy(raw, &d, 8);
        } else {
          raw[0] = uint8_t(v);
        }
        if (big) std::reverse(raw, raw + sizes[t]);
        w.bytes.insert(w.bytes.end(), raw, raw + sizes[t]);
      }
      writeBytes(dir.file("b.ply"), w.bytes);
      const PointCloud binary = readPointCloud(dir.file("b.ply"));
      ASSERT_EQ(binary.size(), 2u);
      EXPECT_NEAR(binary.origin.z + binary.points[1].z, 6.0, 1e-6) << (big ? "big" : "little");
    }
  }
}

TEST(PlyReader, AcceptsCrOnlyAndCrLfHeaders) {
  TempDir dir;
  for (const char* br : {"\r", "\r\n"}) {
    const std::string b = br;
    writeText(dir.file("c.ply"), "ply" + b + "format ascii 1.0" + b + "element vertex 1" + b +
                                     "property float x" + b + "property float y" + b +
                                     "property float z" + b + "end_header" + b + "1 2 3" + b);
    EXPECT_EQ(readPointCloud(dir.file("c.ply")).size(), 1u);
  }
}

TEST(PlyReader, FloatColorsInUnitRangeAreScaled) {
  TempDir dir;
  writeText(dir.file("c.ply"),
            "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\n"
            "property float z\nproperty float diffuse_red\nproperty float diffuse_green\n"
            "property float diffuse_blue\nend_header\n0 0 0 1 0.5 0\n");
  const PointCloud cloud = readPointCloud(dir.file("c.ply"));
  EXPECT_TRUE(cloud.hasColor);
  EXPECT_EQ(cloud.points[0].rgba, packRgba(255, 128, 0));
}

/// 'g' and 'green' are both green: with no red, the three are data, not colours (a binary
/// body of 16-bit channels once read a red channel that was not there).
TEST(PlyReader, AChannelNamedTwiceIsDataNotColor) {
  TempDir dir;
  const std::string header =
      "element vertex 2\nproperty float x\nproperty float y\nproperty float z\n"
      "property ushort g\nproperty ushort green\nproperty ushort blue\nend_header\n";
  writeText(dir.file("a.ply"), "ply\nformat ascii 1.0\n" + header + "0 0 0 1 2 3\n1 1 1 4 5 6\n");
  std::string binary = "ply\nformat binary_little_endian 1.0\n" + header;
  for (const uint16_t row : {0, 1}) {
    const float xyz[3] = {float(row), float(row), float(row)};
    const uint16_t channels[3] = {uint16_t(1 + 3 * row), uint16_t(2 + 3 * row),
                                  uint16_t(3 + 3 * row)};
    binary.append(reinterpret_cast<const char*>(xyz), sizeof(xyz));
    binary.append(reinterpret_cast<const char*>(channels), sizeof(channels));
  }
  writeText(dir.file("b.ply"), binary);
  for (const char* name : {"a.ply", "b.ply"}) {
    SCOPED_TRACE(name);
    const PointCloud cloud = readPointCloud(dir.file(name));
    ASSERT_EQ(cloud.size(), 2u);
    EXPECT_FALSE(cloud.hasColor);
    ASSERT_NE(cloud.findAttribute("g"), nullptr);
    ASSERT_NE(cloud.findAttribute("green"), nullptr);
    ASSERT_NE(cloud.findAttribute("blue"), nullptr);
    EXPECT_FLOAT_EQ(cloud.findAttribute("g")->values[1], 4.0f);
    EXPECT_FLOAT_EQ(cloud.findAttribute("blue")->values[1], 6.0f);
  }
}

TEST(PlyReader, RejectsTruncatedHeader) {
  TempDir dir;
  writeText(dir.file("t.ply"), "ply\nformat binary_little_endian 1.0\nelement vertex 3\nprop");
  EXPECT_NE(inputErrorOf(dir.file("t.ply")).find("end_header"), std::string::npos);
}

TEST(PlyReader, RejectsTruncatedBinaryBody) {
  TempDir dir;
  auto bytes = makeBinaryPly(somePoints(10));
  bytes.resize(bytes.size() - 3);
  writeBytes(dir.file("t.ply"), bytes);
  EXPECT_NE(inputErrorOf(dir.file("t.ply")).find("bytes follow"), std::string::npos);
}

TEST(PlyReader, HugeCountIsMemorySafe) {
  TempDir dir;
  for (const char* format : {"ascii", "binary_little_endian"}) {
    writeText(dir.file("h.ply"), std::string("ply\nformat ") + format +
                                     " 1.0\nelement vertex 18446744073709551615\n"
                                     "property double x\nproperty double y\nproperty double z\n"
                                     "end_header\n1 2 3\n");
    inputErrorOf(dir.file("h.ply"));
  }
}

TEST(PlyReader, HugeListCountIsMemorySafe) {
  TempDir dir;
  std::string header =
      "ply\nformat binary_little_endian 1.0\nelement face 1\n"
      "property list uint int vertex_indices\nelement vertex 1\n"
      "property float x\nproperty float y\nproperty float z\nend_header\n";
  ByteWriter w;
  w.bytes.assign(header.begin(), header.end());
  w.put<uint32_t>(0xffffffffu);
  w.zeros(12);
  writeBytes(dir.file("l.ply"), w.bytes);
  EXPECT_NE(inputErrorOf(dir.file("l.ply")).find("runs past"), std::string::npos);
}

TEST(PlyReader, RejectsDuplicatedAndUnknownProperties) {
  TempDir dir;
  writeText(dir.file("d.ply"),
            "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\n"
            "property float x\nproperty float y\nend_header\n1 2 3\n");
  EXPECT_NE(inputErrorOf(dir.file("d.ply")).find("twice"), std::string::npos);
  writeText(dir.file("u.ply"),
            "ply\nformat ascii 1.0\nelement vertex 1\nproperty quad x\n"
            "end_header\n1\n");
  EXPECT_NE(inputErrorOf(dir.file("u.ply")).find("unknown property type"), std::string::npos);
}

TEST(PlyReader, RejectsNonNumbersWithTheirLine) {
  TempDir dir;
  writeText(dir.file("n.ply"),
            "ply\nformat ascii 1.0\nelement vertex 2\nproperty float x\n"
            "property float y\nproperty float z\nend_header\n1 2 3\n4 five 6\n");
  EXPECT_NE(inputErrorOf(dir.file("n.ply")).find("line 9"), std::string::npos);
}

TEST(PlyReader, ShortLastRowNamesItsOwnLine) {
  TempDir dir;
  writeText(dir.file("s.ply"),
            "ply\nformat ascii 1.0\nelement vertex 2\nproperty float x\n"
            "property float y\nproperty float z\nend_header\n1 2 3\n4 5\n");
  const std::string error = inputErrorOf(dir.file("s.ply"));
  EXPECT_NE(error.find("line 9:"), std::string::npos) << error;
}

TEST(PlyReader, BadListCountNamesItsLine) {
  TempDir dir;
  writeText(dir.file("l.ply"),
            "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\n"
            "element face 2\nproperty list uchar int vertex_indices\nend_header\n1 2\n"
            "3 0 0 0\n-1\n");
  const std::string error = inputErrorOf(dir.file("l.ply"));
  EXPECT_NE(error.find("line 11:"), std::string::npos) << error;
}

TEST(PlyReader, RejectsWrongMagicEmptyFilesAndDirectories) {
  TempDir dir;
  writeText(dir.file("empty.ply"), "");
  EXPECT_NE(inputErrorOf(dir.file("empty.ply")).find("empty"), std::string::npos);
  writeText(dir.file("bad.ply"), "plx\nformat ascii 1.0\n");
  EXPECT_NE(inputErrorOf(dir.file("bad.ply")).find("magic"), std::string::npos);
  std::filesystem::create_directory(dir.file("folder.ply"));
  EXPECT_NE(inputErrorOf(dir.file("folder.ply")).find("directory"), std::string::npos);
  EXPECT_NE(inputErrorOf(dir.file("missing.ply")).find("cannot open"), std::string::npos);
}

}  // namespace
}  // namespace pcv::test
