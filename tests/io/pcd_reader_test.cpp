// PCD edge cases written by the tests.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>

#include "io_test_util.hpp"

namespace pcv::test {
namespace {

std::string header(const std::string& data, int points, const std::string& fields = "x y z rgb",
                   const std::string& size = "4 4 4 4", const std::string& type = "F F F U") {
  return "# .PCD v0.7\nVERSION 0.7\nFIELDS " + fields + "\nSIZE " + size + "\nTYPE " + type +
         "\nCOUNT 1 1 1 1\nWIDTH " + std::to_string(points) +
         "\nHEIGHT 1\nVIEWPOINT 0 0 0 1 0 0 0\n"
         "POINTS " +
         std::to_string(points) + "\nDATA " + data + "\n";
}

/// Literal-only LZF: valid input for the decompressor without needing a compressor.
std::vector<uint8_t> lzfLiterals(const std::vector<uint8_t>& raw) {
  std::vector<uint8_t> out;
  for (size_t i = 0; i < raw.size(); i += 32) {
    const size_t n = std::min<size_t>(32, raw.size() - i);
    out.push_back(uint8_t(n - 1));
    out.insert(out.end(), raw.begin() + long(i), raw.begin() + long(i + n));
  }
  return out;
}

TEST(PcdReader, ReadsAsciiBinaryAndCompressedAlike) {
  TempDir dir;
  const float xs[3] = {1.5f, 2.5f, NAN};
  const uint32_t rgb[3] = {0xff0000u, 0x00ff00u, 0x0000ffu};
  std::string ascii = header("ascii", 3);
  ByteWriter binary, columns;
  for (int i = 0; i < 3; ++i) {
    ascii += std::to_string(xs[i]) + " 2 3 " + std::to_string(rgb[i]) + "\n";
    binary.put<float>(xs[i]), binary.put<float>(2.0f), binary.put<float>(3.0f);
    binary.put<uint32_t>(rgb[i]);
  }
  for (int i = 0; i < 3; ++i) columns.put<float>(xs[i]);
  for (int i = 0; i < 3; ++i) columns.put<float>(2.0f);
  for (int i = 0; i < 3; ++i) columns.put<float>(3.0f);
  for (int i = 0; i < 3; ++i) columns.put<uint32_t>(rgb[i]);
  writeText(dir.file("a.pcd"), ascii);
  std::string h = header("binary", 3);
  binary.bytes.insert(binary.bytes.begin(), h.begin(), h.end());
  writeBytes(dir.file("b.pcd"), binary.bytes);
  const auto packed = lzfLiterals(columns.bytes);
  ByteWriter compressed;
  h = header("binary_compressed", 3);
  compressed.bytes.assign(h.begin(), h.end());
  compressed.put<uint32_t>(uint32_t(packed.size()));
  compressed.put<uint32_t>(uint32_t(columns.bytes.size()));
  compressed.bytes.insert(compressed.bytes.end(), packed.begin(), packed.end());
  writeBytes(dir.file("c.pcd"), compressed.bytes);
  for (const char* name : {"a.pcd", "b.pcd", "c.pcd"}) {
    SCOPED_TRACE(name);
    FileSummary summary;
    const PointCloud cloud = readPointCloud(dir.file(name), nullptr, &summary);
    ASSERT_EQ(cloud.size(), 2u) << "the NaN point is dropped";
    EXPECT_EQ(summary.droppedPoints, 1u);
    EXPECT_TRUE(cloud.hasColor);
    EXPECT_EQ(cloud.points[0].rgba, packRgba(255, 0, 0));
    EXPECT_EQ(cloud.points[1].rgba, packRgba(0, 255, 0));
    EXPECT_NEAR(cloud.origin.x + cloud.points[1].x, 2.5, 1e-6);
  }
}

TEST(PcdReader, ReadsFloatPackedRgb) {
  TempDir dir;
  const float packed = std::bit_cast<float>(0x00102030u);
  ByteWriter w;
  const std::string h = header("binary", 1, "x y z rgb", "4 4 4 4", "F F F F");
  w.bytes.assign(h.begin(), h.end());
  w.put<float>(0), w.put<float>(0), w.put<float>(0), w.put<float>(packed);
  writeBytes(dir.file("f.pcd"), w.bytes);
  EXPECT_EQ(readPointCloud(dir.file("f.pcd")).points[0].rgba, packRgba(0x10, 0x20, 0x30));
}

TEST(PcdReader, RejectsPointsThatDisagreeWithWidthTimesHeight) {
  TempDir dir;
  std::string text = header("ascii", 2);
  text.replace(text.find("POINTS 2"), 8, "POINTS 3");
  writeText(dir.file("p.pcd"), text + "1 2 3 0\n4 5 6 0\n");
  EXPECT_NE(inputErrorOf(dir.file("p.pcd")).find("POINTS"), std::string::npos);
}

TEST(PcdReader, RejectsTruncatedBinary) {
  TempDir dir;
  std::string text = header("binary", 100);
  writeText(dir.file("t.pcd"), text + std::string(50, 'x'));
  EXPECT_NE(inputErrorOf(dir.file("t.pcd")).find("bytes follow"), std::string::npos);
}

TEST(PcdReader, HugeCountIsMemorySafe) {
  TempDir dir;
  for (const char* data : {"ascii", "binary", "binary_compressed"}) {
    std::string text = header(data, 1);
    text.replace(text.find("WIDTH 1"), 7, "WIDTH 4294967296");
    text.replace(text.find("HEIGHT 1"), 8, "HEIGHT 4294967296");
    text.replace(text.find("POINTS 1"), 8, "POINTS 0");
    writeText(dir.file("h.pcd"), text + "12345678");
    inputErrorOf(dir.file("h.pcd"));
    std::string big = header(data, 1);
    big.replace(big.find("WIDTH 1"), 7, "WIDTH 4000000000");
    big.replace(big.find("POINTS 1"), 8, "POINTS 4000000000");
    ByteWriter w;
    w.bytes.assign(big.begin(), big.end());
    w.put<uint32_t>(4), w.put<uint32_t>(0xffffffffu), w.put<uint32_t>(0);
    writeBytes(dir.file("h2.pcd"), w.bytes);
    inputErrorOf(dir.file("h2.pcd"));
  }
}

TEST(PcdReader, RejectsCorruptCompressedData) {
  TempDir dir;
  ByteWriter w;
  const std::string h = header("binary_compressed", 1);
  w.bytes.assign(h.begin(), h.end());
  w.put<uint32_t>(3), w.put<uint32_t>(16);
  w.put<uint8_t>(0x20), w.put<uint8_t>(0x05), w.put<uint8_t>(0);  // reference before the start
  writeBytes(dir.file("z.pcd"), w.bytes);
  EXPECT_NE(inputErrorOf(dir.file("z.pcd")).find("corrupt LZF"), std::string::npos);
}

TEST(PcdReader, RejectsBadSizesAndDuplicatedFields) {
  TempDir dir;
  writeText(dir.file("s.pcd"), header("ascii", 1, "x y z rgb", "4 4 3 4") + "1 2 3 4\n");
  EXPECT_NE(inputErrorOf(dir.file("s.pcd")).find("SIZE 3"), std::string::npos);
  writeText(dir.file("d.pcd"), header("ascii", 1, "x y x rgb") + "1 2 3 4\n");
  EXPECT_NE(inputErrorOf(dir.file("d.pcd")).find("twice"), std::string::npos);
}

}  // namespace
}  // namespace pcv::test
