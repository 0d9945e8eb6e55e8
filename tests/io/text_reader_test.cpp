// Text point lists written by the tests.
#include <gtest/gtest.h>

#include "io_test_util.hpp"

namespace pcv::test {
namespace {

TEST(TextReader, GuessesColorColumnsFromRanges) {
  TempDir dir;
  writeText(dir.file("c.xyz"), "1 2 3 255 0 10\n4 5 6 0 128 0\n");
  const PointCloud cloud = readPointCloud(dir.file("c.xyz"));
  EXPECT_TRUE(cloud.hasColor);
  EXPECT_EQ(cloud.points[0].rgba, packRgba(255, 0, 10));
}

TEST(TextReader, SixColumnsOutsideColorRangeStayAttributes) {
  TempDir dir;
  writeText(dir.file("n.xyz"), "1 2 3 -0.5 0.5 0.7\n4 5 6 0 1 0\n");
  const PointCloud cloud = readPointCloud(dir.file("n.xyz"));
  EXPECT_FALSE(cloud.hasColor);
  EXPECT_EQ(cloud.attributes.size(), 3u);
}

TEST(TextReader, UsesHeaderNamesAndSemicolons) {
  TempDir dir;
  writeText(dir.file("h.csv"), "z;y;x;Intensity\r\n3;2;1;7\r\n6;5;4;8\r\n");
  const PointCloud cloud = readPointCloud(dir.file("h.csv"));
  ASSERT_EQ(cloud.size(), 2u);
  EXPECT_NEAR(cloud.origin.x + cloud.points[1].x, 4.0, 1e-6);
  EXPECT_NEAR(cloud.origin.z + cloud.points[1].z, 6.0, 1e-6);
  EXPECT_FLOAT_EQ(cloud.findAttribute("intensity")->values[1], 8.0f);
}

TEST(TextReader, PtsCountThatDisagreesWithItsRowsIsAWarning) {
  TempDir dir;
  writeText(dir.file("c.pts"), "2\n1 2 3\n4 5 6\n7 8 9\n");
  FileSummary summary;
  const PointCloud cloud = readPointCloud(dir.file("c.pts"), nullptr, &summary);
  EXPECT_EQ(cloud.size(), 3u);  // the rows rule
  ASSERT_EQ(summary.warnings.size(), 1u);
  EXPECT_NE(summary.warnings[0].find("line 1 declares 2 points, but 3 rows follow"),
            std::string::npos)
      << summary.warnings[0];
}

TEST(TextReader, PtsWithSeveralScansChecksEachCount) {
  TempDir dir;
  writeText(dir.file("s.pts"), "2\n1 2 3\n4 5 6\n1\n7 8 9\n");
  FileSummary summary;
  EXPECT_EQ(readPointCloud(dir.file("s.pts"), nullptr, &summary).size(), 3u);
  EXPECT_TRUE(summary.warnings.empty());
}

TEST(TextReader, RejectsRaggedRowsWithTheirLine) {
  TempDir dir;
  writeText(dir.file("r.txt"), "1 2 3\n4 5 6\n7 8\n");
  EXPECT_NE(inputErrorOf(dir.file("r.txt")).find("line 3"), std::string::npos);
}

TEST(TextReader, RejectsHeaderWithoutZ) {
  TempDir dir;
  writeText(dir.file("z.txt"), "x,y,w\n1,2,3\n");
  EXPECT_NE(inputErrorOf(dir.file("z.txt")).find("no x, y and z"), std::string::npos);
}

TEST(TextReader, RejectsBinaryGarbage) {
  TempDir dir;
  std::vector<uint8_t> garbage(256);
  for (size_t i = 0; i < garbage.size(); ++i) garbage[i] = uint8_t(i * 37);
  writeBytes(dir.file("g.xyz"), garbage);
  inputErrorOf(dir.file("g.xyz"));
  writeBytes(dir.file("g.bin"), garbage);
  EXPECT_NE(inputErrorOf(dir.file("g.bin")).find("unknown format"), std::string::npos);
}

TEST(TextReader, MergedCloudsShareOneOrigin) {
  TempDir dir;
  writeText(dir.file("a.xyz"), "500000.01 5000000.02 10 \n");
  writeText(dir.file("b.xyz"), "500100.03 5000100.04 20\n");
  PointCloud merged;
  appendPointCloud(merged, readPointCloud(dir.file("a.xyz")));
  appendPointCloud(merged, readPointCloud(dir.file("b.xyz")));
  ASSERT_EQ(merged.size(), 2u);
  EXPECT_NEAR(merged.origin.x + merged.points[1].x, 500100.03, 1e-3);
  EXPECT_NEAR(merged.origin.y + merged.points[1].y, 5000100.04, 1e-3);
}

}  // namespace
}  // namespace pcv::test
