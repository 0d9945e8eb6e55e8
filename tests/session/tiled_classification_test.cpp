// A dataset classified tile by tile as the library does it: each tile's neighbours from the
// header bounds within the buffer, outputs that would overwrite an input or a file already
// there refused before anything is read, bad buffers, the default buffer, and a cancel that
// stops the run with no file written.
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>

#include "io_test_util.hpp"
#include "pcv/core/error.hpp"
#include "pcv/core/partial_file.hpp"
#include "pcv/session/tiled_classification.hpp"
#include "synthetic_tiles.hpp"

namespace pcv {
namespace {

/// 3 x 3 LAS tiles of 100 m, 10 x 10 points each (so their header bounds stand 10 m apart),
/// row by row: the centre one is index 4.
std::vector<std::string> writeTiles(const std::filesystem::path& folder) {
  std::filesystem::create_directories(folder);
  std::vector<std::string> tiles;
  for (int row = 0; row < 3; ++row) {
    for (int column = 0; column < 3; ++column) {
      const auto path = folder / ("t" + std::to_string(row) + std::to_string(column) + ".las");
      tiles.push_back(test::writeLasTile(path, column, row, 10).string());
    }
  }
  return tiles;
}

TEST(TiledClassification, NeighboursAreTheTilesWithinTheBuffer) {
  test::TempDir dir;
  const std::vector<std::string> tiles = writeTiles(dir.file("in"));
  // Header bounds 10 m apart: no neighbour within 5 m, all around within 20 m.
  const TiledClassificationPlan near = planTiledClassification(tiles, dir.file("out"), 5.0, false);
  const TiledClassificationPlan far = planTiledClassification(tiles, dir.file("out"), 20.0, false);
  ASSERT_EQ(far.jobs.size(), 9u);
  for (const TileClassificationJob& job : near.jobs) EXPECT_TRUE(job.neighbours.empty());
  EXPECT_EQ(far.jobs[4].neighbours.size(), 8u);
  EXPECT_EQ(far.jobs[0].neighbours.size(), 3u);
  EXPECT_EQ(far.jobs[1].neighbours.size(), 5u);
  EXPECT_EQ(far.jobs[4].file.output, dir.file("out") / "t11.las");
  EXPECT_EQ(far.datasetBounds.min.x, test::kEast + 5.0);
  EXPECT_EQ(far.datasetBounds.max.x, test::kEast + 295.0);
  // The run's points: its own and the share of its neighbours' within the buffer.
  EXPECT_GT(far.jobs[4].windowPoints, near.jobs[4].windowPoints);
  EXPECT_LT(far.jobs[4].windowPoints, 9u * 100u);
  // In place: each tile is its own output.
  const TiledClassificationPlan inPlace = planTiledClassification(tiles, {}, 20.0, false);
  EXPECT_EQ(inPlace.jobs[4].file.output, std::filesystem::path(tiles[4]));
}

TEST(TiledClassification, RefusesOutputsOverInputsOrAlreadyThereAndBadBuffers) {
  test::TempDir dir;
  const std::vector<std::string> tiles = writeTiles(dir.file("in"));
  EXPECT_THROW(planTiledClassification(tiles, dir.file("in"), 20.0, true), InputError);
  std::filesystem::create_directories(dir.file("out"));
  test::writeBytes(dir.file("out") / "t00.las", {1, 2, 3});
  EXPECT_THROW(planTiledClassification(tiles, dir.file("out"), 20.0, false), OutputExistsError);
  EXPECT_NO_THROW(planTiledClassification(tiles, dir.file("out"), 20.0, true));
  for (const double bad : {-1.0, std::nan(""), double(INFINITY)}) {
    EXPECT_THROW(planTiledClassification(tiles, dir.file("other"), bad, false), InputError) << bad;
  }
  // Two tiles of one name from different folders would write one output.
  const std::vector<std::string> again = writeTiles(dir.file("again"));
  std::vector<std::string> both = tiles;
  both.push_back(again[0]);
  EXPECT_THROW(planTiledClassification(both, dir.file("other"), 20.0, false), InputError);
}

TEST(TiledClassification, DefaultBufferCoversTheOpeningAndTheNoiseRadius) {
  ClassifySettings settings;
  EXPECT_DOUBLE_EQ(defaultClassificationBuffer(settings), 2.0 * 18.0 + 4.0 * 1.0);
  settings.ground = false;
  EXPECT_DOUBLE_EQ(defaultClassificationBuffer(settings), 2.0);
  settings.ground = true;
  settings.groundFilter.window = 0.5;
  settings.groundFilter.cell = 0.25;
  settings.noiseFilter.radius = 5.0;
  EXPECT_DOUBLE_EQ(defaultClassificationBuffer(settings), 5.0);
}

TEST(TiledClassification, ACancelStopsTheRunAndWritesNothing) {
  test::TempDir dir;
  const std::vector<std::string> tiles = writeTiles(dir.file("in"));
  const TiledClassificationPlan plan = planTiledClassification(tiles, dir.file("out"), 20.0, false);
  std::filesystem::create_directories(dir.file("out"));
  const std::vector<size_t> all = {0, 1, 2, 3, 4, 5, 6, 7, 8};
  std::atomic<bool> cancel{true};
  EXPECT_THROW(classifyTiles(plan, all, {}, {.cancel = &cancel}), ConversionCancelled);
  EXPECT_TRUE(std::filesystem::is_empty(dir.file("out")));
  // Not cancelled, every tile is written with its own points.
  cancel = false;
  const std::vector<TileClassificationOutcome> outcomes =
      classifyTiles(plan, all, {}, {.cancel = &cancel});
  ASSERT_EQ(outcomes.size(), 9u);
  for (const TileClassificationOutcome& o : outcomes) {
    EXPECT_TRUE(o.done) << o.error;
    EXPECT_EQ(o.points, 100u);
    // 20 m around a tile reach 2 columns of a neighbour's points beside it (20 points) and 2 x 2
    // of one across a corner.
    uint64_t expected = 0;
    const Box3d& own = plan.jobs[o.job].bounds;
    for (const size_t n : plan.jobs[o.job].neighbours) {
      const Box3d& other = plan.jobs[n].bounds;
      expected += other.min.x == own.min.x || other.min.y == own.min.y ? 20 : 4;
    }
    EXPECT_EQ(o.bufferPoints, expected) << o.job;
    EXPECT_TRUE(std::filesystem::exists(plan.jobs[o.job].file.output));
  }
}

}  // namespace
}  // namespace pcv
