// Readers publish the decoded prefix of binary files while they load: the published count only
// grows, ends at every record, and each published point is the point the finished cloud holds.
#include <gtest/gtest.h>

#include <cstring>

#include "io_test_util.hpp"
#include "pcv/io/las_writer.hpp"
#include "pcv/io/point_records.hpp"

namespace pcv {
namespace {

/// Enough points for several decoding slices; varied so a misplaced slice shows.
std::vector<test::SyntheticPoint> manyPoints(uint64_t count) {
  std::vector<test::SyntheticPoint> points(count);
  for (uint64_t i = 0; i < count; ++i) {
    test::SyntheticPoint& p = points[i];
    p.x = 500000.0 + double(i % 1009) * 0.25;
    p.y = 5000000.0 + double(i / 1009) * 0.25;
    p.z = 50.0 + double(i % 89) * 0.5;
    p.red = uint16_t(i * 40503u), p.green = uint16_t(i * 2654435761u), p.blue = uint16_t(i);
  }
  return points;
}

constexpr uint64_t kPointCount = 1'200'000;

/// Loads `path` recording every published prefix; checks them against the finished cloud.
void expectGrowingFinalPrefixes(const std::filesystem::path& path) {
  LoadProgress progress;
  std::vector<uint64_t> publishedCounts;
  std::vector<Point> publishedPoints;  // each point as first published
  std::vector<glm::dvec3> publishedOrigins;
  progress.onPrefix = [&](const PointPrefix& prefix) {
    EXPECT_EQ(progress.pointsReady.load(std::memory_order_acquire), prefix.points.size());
    publishedCounts.push_back(prefix.points.size());
    publishedOrigins.push_back(prefix.origin);
    publishedPoints.insert(publishedPoints.end(),
                           prefix.points.begin() + std::ptrdiff_t(publishedPoints.size()),
                           prefix.points.end());
  };
  const PointCloud cloud = readPointCloud(path, &progress);
  ASSERT_EQ(cloud.size(), kPointCount);
  ASSERT_GE(publishedCounts.size(), 3u) << "a file this large decodes in several slices";
  for (size_t k = 1; k < publishedCounts.size(); ++k) {
    EXPECT_GT(publishedCounts[k], publishedCounts[k - 1]);
  }
  EXPECT_EQ(publishedCounts.back(), cloud.size());
  EXPECT_EQ(progress.pointsReady.load(), cloud.size());
  for (const glm::dvec3& origin : publishedOrigins) EXPECT_EQ(origin, cloud.origin);
  ASSERT_EQ(publishedPoints.size(), cloud.size());
  uint64_t differing = 0;
  for (uint64_t i = 0; i < cloud.size(); ++i) {
    differing += std::memcmp(&publishedPoints[i], &cloud.points[i], sizeof(Point)) != 0;
  }
  EXPECT_EQ(differing, 0u);
}

TEST(ProgressiveLoad, LasPrefixGrowsAndMatchesTheFinishedCloud) {
  test::TempDir dir;
  test::LasOptions options;
  options.pointFormat = 2;  // RGB, 26 bytes per point
  options.offset[0] = 500000, options.offset[1] = 5000000;
  test::writeBytes(dir.file("big.las"), test::makeLas(manyPoints(kPointCount), options));
  expectGrowingFinalPrefixes(dir.file("big.las"));
}

TEST(ProgressiveLoad, LazPrefixGrowsAndMatchesTheFinishedCloud) {
  test::TempDir dir;
  for (int format : {3, 7}) {
    test::LasOptions options;
    options.pointFormat = format;
    options.minor = format >= 6 ? 4 : 2;
    options.offset[0] = 500000, options.offset[1] = 5000000;
    test::writeBytes(dir.file("big.las"), test::makeLas(manyPoints(kPointCount), options));
    auto records = openLasRecords(dir.file("big.las"));
    LasFileWriter writer(dir.file("big.laz"), records->format(), LasCompression::Laz);
    const uint8_t* data = nullptr;
    while (const uint64_t count = records->next(1 << 20, data)) writer.write(data, count);
    writer.finish();
    expectGrowingFinalPrefixes(dir.file("big.laz"));
  }
}

TEST(ProgressiveLoad, BinaryPlyPrefixGrowsAndMatchesTheFinishedCloud) {
  test::TempDir dir;
  test::writeBytes(dir.file("big.ply"), test::makeBinaryPly(manyPoints(kPointCount)));
  expectGrowingFinalPrefixes(dir.file("big.ply"));
}

TEST(ProgressiveLoad, SmallFileIsOnePrefixOfEveryPoint) {
  test::TempDir dir;
  test::writeBytes(dir.file("small.ply"), test::makeBinaryPly(manyPoints(1000)));
  LoadProgress progress;
  std::vector<uint64_t> publishedCounts;
  progress.onPrefix = [&](const PointPrefix& prefix) {
    publishedCounts.push_back(prefix.points.size());
  };
  const PointCloud cloud = readPointCloud(dir.file("small.ply"), &progress);
  EXPECT_EQ(publishedCounts, std::vector<uint64_t>{cloud.size()});
}

}  // namespace
}  // namespace pcv
