// pcv convert --tiles as the library does it: output names, same-named tiles refused, the tiles
// shared among ranks (every tile once, balanced, the same on every rank), each tile's COPC equal
// in points to its input and byte for byte the same whatever the threads and memory, a failed
// tile reported without a file under its name, and the VPC over the tiles as the reader sees it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <tuple>

#include "io_test_util.hpp"
#include "pcv/core/parallel.hpp"
#include "pcv/io/copc_file.hpp"
#include "pcv/io/point_cloud_reader.hpp"
#include "pcv/io/virtual_point_cloud.hpp"
#include "pcv/session/tile_conversion.hpp"
#include "synthetic_tiles.hpp"

namespace pcv {
namespace {

std::vector<uint8_t> bytesOf(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// Every point of a file as centimetres and colour, sorted: equal for the same points in any order.
std::vector<std::tuple<int64_t, int64_t, int64_t, uint32_t>> pointsOf(
    const std::filesystem::path& path) {
  const PointCloud cloud = readPointCloud(path);
  std::vector<std::tuple<int64_t, int64_t, int64_t, uint32_t>> points;
  for (const Point& p : cloud.points) {
    points.emplace_back(std::llround((cloud.origin.x + p.x) * 100),
                        std::llround((cloud.origin.y + p.y) * 100),
                        std::llround((cloud.origin.z + p.z) * 100), p.rgba);
  }
  std::sort(points.begin(), points.end());
  return points;
}

/// Tiles of 900, 1 600, 400 and 40 000 points (a LAZ among them) in `dir`/tiles; the last is
/// dense enough for an octree of many nodes.
std::vector<std::string> writeTiles(const test::TempDir& dir) {
  const std::filesystem::path folder = dir.file("tiles");
  std::filesystem::create_directories(folder);
  return {test::writeLasTile(folder / "a.las", 0, 0, 30).string(),
          test::writeLazTile(folder / "b.laz", 1, 0, 40, 500).string(),
          test::writeLasTile(folder / "c.las", 0, 1, 20).string(),
          test::writeLasTile(folder / "d.las", 1, 1, 200).string()};
}

TEST(TileConversion, NamesEachTileAfterItsInput) {
  EXPECT_EQ(copcTileName("x/a.laz"), "a.copc.laz");
  EXPECT_EQ(copcTileName("a.LAS"), "a.copc.laz");
  EXPECT_EQ(copcTileName("/d/a.copc.laz"), "a.copc.laz");
  EXPECT_EQ(copcTileName("a.COPC.LAZ"), "a.copc.laz");
  EXPECT_EQ(copcTileName("tile.2024.ply"), "tile.2024.copc.laz");
}

TEST(TileConversion, RefusesSameNamedTilesOfDifferentFolders) {
  test::TempDir dir;
  std::filesystem::create_directories(dir.file("x"));
  std::filesystem::create_directories(dir.file("y"));
  const std::string a = test::writeLasTile(dir.file("x") / "a.las", 0, 0, 5).string();
  const std::string b = test::writeLasTile(dir.file("y") / "a.laz", 1, 0, 5).string();
  try {
    planTileJobs({a, b}, dir.file("out"));
    FAIL() << "two tiles named a were planned into one folder";
  } catch (const InputError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find(a), std::string::npos) << message;
    EXPECT_NE(message.find(b), std::string::npos) << message;
  }
}

TEST(TileConversion, RefusesATileThatWouldOverwriteItself) {
  test::TempDir dir;
  const std::string a = test::writeCopcTile(dir.file("a.copc.laz"), 0, 0, 5).string();
  EXPECT_THROW(planTileJobs({a}, dir.file("")), InputError);
}

TEST(TileConversion, SharesTheTilesAmongRanksOnceEachAndBalanced) {
  std::vector<TileJob> jobs;
  for (uint64_t i = 0; i < 37; ++i) jobs.push_back({.inputBytes = (i * 7919) % 1000 + 1});
  for (int ranks : {1, 2, 3, 8}) {
    SCOPED_TRACE(ranks);
    std::vector<int> owner(jobs.size(), -1);
    uint64_t most = 0, least = UINT64_MAX, largest = 0;
    for (const TileJob& job : jobs) largest = std::max(largest, job.inputBytes);
    for (int rank = 0; rank < ranks; ++rank) {
      const std::vector<size_t> mine = tilesOfRank(jobs, rank, ranks);
      EXPECT_EQ(mine, tilesOfRank(jobs, rank, ranks)) << "the same on every call";
      uint64_t bytes = 0;
      for (const size_t job : mine) {
        EXPECT_EQ(owner[job], -1) << "tile " << job << " given twice";
        owner[job] = rank;
        bytes += jobs[job].inputBytes;
      }
      EXPECT_TRUE(std::is_sorted(mine.begin(), mine.end(), [&](size_t a, size_t b) {
        return jobs[a].inputBytes > jobs[b].inputBytes;
      })) << "largest first";
      most = std::max(most, bytes);
      least = std::min(least, bytes);
    }
    EXPECT_EQ(std::count(owner.begin(), owner.end(), -1), 0) << "a tile given to no rank";
    // Largest first to the least loaded: the ranks differ by at most one tile.
    EXPECT_LE(most - least, largest);
  }
}

TEST(TileConversion, EachCopcTileHoldsTheIdenticalPointsOfItsInput) {
  test::TempDir dir;
  const std::vector<std::string> inputs = writeTiles(dir);
  const std::vector<TileJob> jobs = planTileJobs(inputs, dir.file("out"));
  std::filesystem::create_directories(dir.file("out"));
  const std::vector<size_t> all = tilesOfRank(jobs, 0, 1);
  TileConversionProgress progress;
  const std::vector<TileOutcome> outcomes =
      convertTiles(jobs, all, {.maxPointsPerNode = 300}, &progress);
  ASSERT_EQ(outcomes.size(), 4u);
  EXPECT_EQ(progress.tilesDone.load(), 4u);
  EXPECT_EQ(progress.pointsDone.load(), 900u + 1600u + 400u + 40000u);
  for (const TileOutcome& outcome : outcomes) {
    const TileJob& job = jobs[outcome.job];
    SCOPED_TRACE(job.input);
    ASSERT_TRUE(outcome.done) << outcome.error;
    EXPECT_EQ(job.output, dir.file("out") / copcTileName(job.input));
    const CopcFile copc(job.output);
    EXPECT_EQ(copc.pointCount(), outcome.summary.pointCount);
    if (job.input.ends_with("d.las")) {
      EXPECT_GT(outcome.summary.nodeCount, 1u) << "an octree, not a single node";
    }
    EXPECT_EQ(pointsOf(job.output), pointsOf(job.input));
  }
}

TEST(TileConversion, TileBytesDoNotDependOnThreadsOrMemory) {
  test::TempDir dir;
  const std::vector<std::string> inputs = writeTiles(dir);
  const std::vector<TileJob> wide = planTileJobs(inputs, dir.file("wide"));
  const std::vector<TileJob> narrow = planTileJobs(inputs, dir.file("narrow"));
  std::filesystem::create_directories(dir.file("wide"));
  std::filesystem::create_directories(dir.file("narrow"));
  convertTiles(wide, tilesOfRank(wide, 0, 1), {.maxPointsPerNode = 300});
  {
    // One thread, and so little memory that the larger tiles go through temporary files.
    const WorkerLimit oneThread(1);
    uint64_t temporaryBytes = 0;
    for (int rank = 0; rank < 2; ++rank) {
      for (const TileOutcome& outcome :
           convertTiles(narrow, tilesOfRank(narrow, rank, 2),
                        {.memoryBytes = 300u * 88 * 6, .maxPointsPerNode = 300})) {
        ASSERT_TRUE(outcome.done) << outcome.error;
        temporaryBytes += outcome.summary.temporaryBytes;
      }
    }
    EXPECT_GT(temporaryBytes, 0u) << "the large tile went through temporary files";
  }
  for (size_t i = 0; i < wide.size(); ++i) {
    SCOPED_TRACE(wide[i].input);
    const std::vector<uint8_t> bytes = bytesOf(wide[i].output);
    EXPECT_FALSE(bytes.empty());
    EXPECT_TRUE(bytes == bytesOf(narrow[i].output));
  }
}

TEST(TileConversion, AFailedTileIsReportedAndLeavesNoFile) {
  test::TempDir dir;
  std::vector<std::string> inputs = writeTiles(dir);
  // A LAS header stating more points than the file holds.
  std::vector<uint8_t> broken = test::lasWithBounds(test::gridTile(2, 0, 10));
  broken.resize(broken.size() - 500);
  test::writeBytes(dir.file("tiles") / "broken.las", broken);
  inputs.push_back((dir.file("tiles") / "broken.las").string());
  const std::vector<TileJob> jobs = planTileJobs(inputs, dir.file("out"));
  std::filesystem::create_directories(dir.file("out"));
  TileConversionProgress progress;
  const std::vector<TileOutcome> outcomes =
      convertTiles(jobs, tilesOfRank(jobs, 0, 1), {}, &progress);
  EXPECT_EQ(progress.tilesDone.load(), 4u);
  EXPECT_EQ(progress.tilesFailed.load(), 1u);
  for (const TileOutcome& outcome : outcomes) {
    const TileJob& job = jobs[outcome.job];
    EXPECT_EQ(outcome.done, job.input != inputs.back()) << job.input;
    EXPECT_EQ(std::filesystem::exists(job.output), outcome.done) << job.input;
    if (!outcome.done) {
      EXPECT_NE(outcome.error.find(job.input), std::string::npos) << outcome.error;
    }
  }
  for (const auto& entry : std::filesystem::directory_iterator(dir.file("out"))) {
    EXPECT_TRUE(entry.path().string().ends_with(".copc.laz")) << "left behind: " << entry.path();
  }
}

TEST(TileConversion, TheVpcListsEveryTileWithItsCountBoundsAndRelativeHref) {
  test::TempDir dir;
  const std::vector<std::string> inputs = writeTiles(dir);
  const std::vector<TileJob> jobs = planTileJobs(inputs, dir.file("out"));
  std::filesystem::create_directories(dir.file("out"));
  const std::vector<TileOutcome> outcomes = convertTiles(jobs, tilesOfRank(jobs, 0, 1));
  const std::filesystem::path vpcPath = dir.file("out") / "dataset.vpc";
  writeTileDatasetVpc(vpcPath, outcomes);
  const VirtualPointCloud vpc = readVirtualPointCloud(vpcPath);
  ASSERT_EQ(vpc.tiles.size(), 4u);
  EXPECT_EQ(vpc.totalPoints(), 900u + 1600u + 400u + 40000u);
  const std::string text(reinterpret_cast<const char*>(bytesOf(vpcPath).data()),
                         bytesOf(vpcPath).size());
  for (size_t i = 0; i < jobs.size(); ++i) {
    SCOPED_TRACE(jobs[i].input);
    const VpcTile& tile = vpc.tiles[i];  // in the order of the inputs
    EXPECT_EQ(std::filesystem::path(tile.location), jobs[i].output);
    EXPECT_NE(text.find("\"./" + copcTileName(jobs[i].input) + "\""), std::string::npos);
    const PointCloud input = readPointCloud(jobs[i].input);
    EXPECT_EQ(tile.pointCount.value_or(0), input.size());
    ASSERT_TRUE(tile.nativeBounds.has_value());
    const Box3d expected = input.worldBounds();
    for (int a = 0; a < 3; ++a) {
      EXPECT_NEAR(tile.nativeBounds->min[a], expected.min[a], 0.02) << a;
      EXPECT_NEAR(tile.nativeBounds->max[a], expected.max[a], 0.02) << a;
    }
  }
}

}  // namespace
}  // namespace pcv
