// pcv classify on a dataset: synthetic terrain written as one file and as a grid of tiles; each
// tile classified with its neighbours' points within the buffer gets, point for point, the
// classes the one file gets, on one thread or several, in one process or two MPI ranks, into a
// folder or in place; inputs are never overwritten, and a bad buffer is an error.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "json_report.hpp"
#include "pcv/io/point_records.hpp"
#include "pcv/process/point_classes.hpp"
#include "synthetic_point_files.hpp"
#include "synthetic_tiles.hpp"
#include "synthetic_terrain.hpp"
#include "temp_dir.hpp"
#include "test_support.hpp"

namespace pcv {
namespace {

/// Byte of the classification in point format 3 records (its low 5 bits).
constexpr size_t kClassByte = 15;
constexpr double kScale = 0.001;
constexpr double kTileSide = 50.0;
constexpr int kTilesPerSide = 4;
const glm::dvec3 kOrigin{300000.0, 4000000.0, 120.0};

using Key = std::array<int32_t, 3>;

/// The terrain's points as a LAS file whose header states their bounds (tiles find their
/// neighbours from them).
std::vector<uint8_t> terrainLas(const std::vector<test::SyntheticPoint>& points) {
  return test::lasWithBounds(
      points, {.pointFormat = 3, .scale = kScale, .offset = {kOrigin.x, kOrigin.y, 0.0}});
}

std::string bytesOf(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// Every record's class, by its coordinates in millimetres (the same whatever the file's scale
/// and offset, and its point format).
std::map<Key, uint8_t> classesByPosition(const std::filesystem::path& path) {
  const std::unique_ptr<PointRecordStream> stream = openLasRecords(path);
  const LasWriteFormat& format = stream->format();
  std::map<Key, uint8_t> classes;
  const uint8_t* batch = nullptr;
  for (uint64_t count; (count = stream->next(4096, batch)) > 0;) {
    for (uint64_t i = 0; i < count; ++i) {
      const uint8_t* record = batch + i * format.recordLength;
      Key key;
      for (int a = 0; a < 3; ++a) {
        int32_t raw;
        std::memcpy(&raw, record + 4 * a, 4);
        key[size_t(a)] = int32_t(
            std::llround((double(raw) * format.scale[a] + format.offset[a] - kOrigin[a]) / kScale));
      }
      classes[key] = format.pointFormat >= 6 ? record[16] : record[kClassByte] & 0x1F;
    }
  }
  return classes;
}

/// The terrain's points with those of a square `lake` metres wide about the centre left out, as
/// one LAS file and as 4 x 4 LAS tiles of 50 m (the tiles with no point left out too).
void writeTerrain(const std::filesystem::path& whole, const std::filesystem::path& tilesFolder,
                  double lake = 0.0) {
  const test::SyntheticTerrain terrain = test::makeSyntheticTerrain(33, kOrigin, 200.0);
  std::vector<test::SyntheticPoint> all;
  std::vector<std::vector<test::SyntheticPoint>> tiles(kTilesPerSide * kTilesPerSide);
  for (const glm::dvec3& p : terrain.points) {
    if (std::abs(p.x - kOrigin.x - 100.0) < lake / 2 &&
        std::abs(p.y - kOrigin.y - 100.0) < lake / 2) {
      continue;
    }
    // On the files' millimetre grid, so that the headers' bounds are the points' (as a LAS
    // writer's are, pcv's COPC tiles' too).
    const auto onGrid = [](double v, double offset) {
      return double(std::llround((v - offset) / kScale)) * kScale + offset;
    };
    const test::SyntheticPoint point{.x = onGrid(p.x, kOrigin.x),
                                     .y = onGrid(p.y, kOrigin.y),
                                     .z = onGrid(p.z, 0.0),
                                     .classification = 5};
    all.push_back(point);
    const int tx = std::clamp(int((p.x - kOrigin.x) / kTileSide), 0, kTilesPerSide - 1);
    const int ty = std::clamp(int((p.y - kOrigin.y) / kTileSide), 0, kTilesPerSide - 1);
    tiles[size_t(ty * kTilesPerSide + tx)].push_back(point);
  }
  test::writeBytes(whole, terrainLas(all));
  std::filesystem::create_directories(tilesFolder);
  for (size_t t = 0; t < tiles.size(); ++t) {
    if (tiles[t].empty()) continue;
    test::writeBytes(tilesFolder / ("tile_" + std::to_string(t) + ".las"), terrainLas(tiles[t]));
  }
}

/// Points of `folder`'s files whose class differs from `reference`'s; `points` counts them all.
size_t differingClasses(const std::filesystem::path& folder,
                        const std::map<Key, uint8_t>& reference, size_t& points) {
  size_t differing = 0;
  points = 0;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    for (const auto& [key, cls] : classesByPosition(entry.path())) {
      ++points;
      const auto found = reference.find(key);
      differing += found == reference.end() || found->second != cls;
    }
  }
  return differing;
}

class ClassifyTilesCli : public ::testing::Test {
 protected:
  /// 200 m square of terrain (buildings, a hill, trees, noise), stale class 5 everywhere; as one
  /// file and as 4 x 4 tiles of 50 m.
  void SetUp() override {
    whole_ = dir_.file("whole.las");
    tiles_ = dir_.file("tiles");
    writeTerrain(whole_, tiles_);
    pointCount_ = classesByPosition(whole_).size();
    std::string text;
    ASSERT_EQ(run(whole_.string() + " " + dir_.file("whole_classified.las").string() + " " +
                      filters_ + " --report " + dir_.file("whole.json").string(),
                  &text),
              0)
        << text;
    wholeClasses_ = classesByPosition(dir_.file("whole_classified.las"));
    ASSERT_EQ(wholeClasses_.size(), pointCount_) << "points share coordinates";
  }

  int run(const std::string& arguments, std::string* text = nullptr,
          const std::string& prefix = "") {
    std::string ignored;
    return test::runCommand(prefix + test::pcvExecutable().string() + " classify " + arguments,
                            text ? text : &ignored);
  }

  /// Expects the tiles in `folder` to hold every point of the terrain, each with the class the
  /// whole file gave it.
  void expectWholeFileClasses(const std::filesystem::path& folder) {
    size_t points = 0;
    EXPECT_EQ(differingClasses(folder, wholeClasses_, points), 0u) << "of " << points;
    EXPECT_EQ(points, pointCount_);
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(folder),
                            std::filesystem::directory_iterator()),
              kTilesPerSide * kTilesPerSide);
  }

  void expectReport(const std::filesystem::path& report, int ranks) {
    const nlohmann::json whole = test::readJsonReport(dir_.file("whole.json"))["classify"];
    const nlohmann::json tiled = test::readJsonReport(report)["classify"];
    EXPECT_TRUE(tiled.value("tiled", false)) << tiled;
    EXPECT_EQ(tiled.value("tiles", 0), kTilesPerSide * kTilesPerSide) << tiled;
    EXPECT_EQ(tiled["outputs"].size(), size_t(kTilesPerSide * kTilesPerSide)) << tiled;
    EXPECT_EQ(tiled.value("points", uint64_t(0)), pointCount_) << tiled;
    EXPECT_EQ(tiled.value("ground", uint64_t(0)), whole.value("ground", uint64_t(1))) << tiled;
    EXPECT_EQ(tiled.value("noise", uint64_t(0)), whole.value("noise", uint64_t(1))) << tiled;
    EXPECT_GT(tiled.value("bufferPoints", uint64_t(0)), 0u) << tiled;
    EXPECT_EQ(tiled.value("ranks", 0), ranks) << tiled;
    std::set<int> ranksUsed;
    for (const nlohmann::json& tile : tiled["perTile"]) ranksUsed.insert(tile.value("rank", -1));
    EXPECT_EQ(ranksUsed.size(), size_t(ranks)) << tiled;
  }

  /// A tight threshold (the terrain's ground is 5 cm thick): many points lie within millimetres
  /// of it, so that a cell shifted, or a surface cut off at a tile's edge, changes their class.
  const std::string filters_ = "--ground --noise --threshold 0.02";
  test::TempDir dir_;
  std::filesystem::path whole_, tiles_;
  size_t pointCount_ = 0;
  std::map<Key, uint8_t> wholeClasses_;
};

TEST_F(ClassifyTilesCli, TilesWithBuffersGetTheWholeFilesClasses) {
  // The whole file's classes are right to begin with (the terrain's truth is checked in
  // classify_cli_test); here they are the reference.
  size_t ground = 0;
  for (const auto& [key, cls] : wholeClasses_) ground += cls == kClassGround;
  EXPECT_GT(ground, pointCount_ / 2);
  for (const char* threads : {"1", "2"}) {
    SCOPED_TRACE(threads);
    const auto out = dir_.file(std::string("out_") + threads);
    const auto report = dir_.file(std::string("report_") + threads + ".json");
    std::string text;
    ASSERT_EQ(
        run(tiles_.string() + " " + out.string() + " " + filters_ + " --report " + report.string(),
            &text, std::string("PCV_THREADS=") + threads + " "),
        0)
        << text;
    expectWholeFileClasses(out);
    expectReport(report, 1);
  }
}

TEST_F(ClassifyTilesCli, InPlaceRewritesEachTileWithTheWholeFilesClasses) {
  const auto copy = dir_.file("copy");
  std::filesystem::copy(tiles_, copy);
  std::string text;
  // A list of tiles with --buffer is a dataset too.
  std::string files;
  for (const auto& entry : std::filesystem::directory_iterator(copy)) {
    files += entry.path().string() + " ";
  }
  ASSERT_EQ(run(files + "--in-place --buffer 40 " + filters_, &text), 0) << text;
  expectWholeFileClasses(copy);
  for (const auto& entry : std::filesystem::directory_iterator(copy)) {
    EXPECT_EQ(entry.path().string().find("partial"), std::string::npos) << entry.path();
  }
}

TEST_F(ClassifyTilesCli, CopcTilesOfAVpcGetTheWholeFilesClasses) {
  // COPC tiles of small nodes and their VPC (each tile's run reads the nodes of its neighbours
  // that meet its buffer), written as COPC; the points of the buffers are fewer than the
  // neighbours'.
  std::string text;
  const auto copc = dir_.file("copc");
  ASSERT_EQ(
      test::runCommand(test::pcvExecutable().string() + " convert --tiles -q --node-points 500 " +
                           tiles_.string() + " " + copc.string(),
                       &text),
      0)
      << text;
  // The dataset as its VPC names it.
  const auto out = dir_.file("copc_out"), report = dir_.file("copc.json");
  ASSERT_EQ(run((copc / "dataset.vpc").string() + " " + out.string() + " " + filters_ +
                    " --report " + report.string(),
                &text),
            0)
      << text;
  expectWholeFileClasses(out);
  const nlohmann::json tiled = test::readJsonReport(report)["classify"];
  uint64_t neighbourPoints = 0;
  for (const nlohmann::json& tile : tiled["perTile"]) {
    EXPECT_TRUE(tile.value("output", "").ends_with(".copc.laz")) << tile;
    neighbourPoints += tile.value("neighbours", uint64_t(0)) * (pointCount_ / 16);
  }
  EXPECT_LT(tiled.value("bufferPoints", neighbourPoints), neighbourPoints) << tiled;
}

TEST_F(ClassifyTilesCli, FilesPastTheMemoryBudgetAreClassifiedTileByTileInPlace) {
  // One file needing more than --memory: with an output file that is an error (the output of a
  // tiled run is a folder); in place, it is classified as a dataset of one tile.
  const auto output = dir_.file("small_budget.las");
  EXPECT_EQ(run(whole_.string() + " " + output.string() + " " + filters_ + " --memory 1M"), 1);
  EXPECT_FALSE(std::filesystem::exists(output));
  const auto copy = dir_.file("copy.las"), report = dir_.file("budget.json");
  std::filesystem::copy_file(whole_, copy);
  std::string text;
  ASSERT_EQ(
      run(copy.string() + " --in-place --memory 1M --report " + report.string() + " " + filters_,
          &text),
      0)
      << text;
  EXPECT_TRUE(test::readJsonReport(report)["classify"].value("tiled", false));
  EXPECT_EQ(classesByPosition(copy), wholeClasses_);
}

TEST(ClassifyTilesLake, AnEmptyAreaAcrossTileCornersKeepsTheWholeFilesClasses) {
  // A lake of 120 m (no points) about the corner of four tiles, wider than the default buffer:
  // the ground filter fills its cells from their surroundings, which a tile's run sees only
  // within its buffer. The classes agree (docs/classify.md: exact here, not guaranteed for every
  // terrain).
  test::TempDir dir;
  const auto whole = dir.file("whole.las"), tiles = dir.file("tiles");
  writeTerrain(whole, tiles, 120.0);
  const std::string pcv = test::pcvExecutable().string() + " classify ";
  std::string text;
  ASSERT_EQ(test::runCommand(pcv + whole.string() + " " + dir.file("classified.las").string() +
                                 " --ground --noise",
                             &text),
            0)
      << text;
  ASSERT_EQ(test::runCommand(
                pcv + tiles.string() + " " + dir.file("out").string() + " --ground --noise", &text),
            0)
      << text;
  const auto reference = classesByPosition(dir.file("classified.las"));
  size_t points = 0;
  const size_t differing = differingClasses(dir.file("out"), reference, points);
  EXPECT_EQ(points, reference.size());
  EXPECT_LE(double(differing), 0.001 * double(points)) << differing << " of " << points;
}

TEST_F(ClassifyTilesCli, TwoMpiRanksGiveTheSameClasses) {
#ifndef PCV_MPIEXEC
  GTEST_SKIP() << "pcv was built without MPI";
#else
  if (!std::filesystem::exists(PCV_MPIEXEC)) GTEST_SKIP() << PCV_MPIEXEC << " is not there";
  // Two ranks on this machine over loopback; root may run them only when it says so.
  const std::string mpirun =
      "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,tcp "
      "OMPI_MCA_btl_tcp_if_include=lo OMPI_MCA_oob_tcp_if_include=lo " +
      std::string(PCV_MPIEXEC) + " -n 2 --oversubscribe ";
  const auto out = dir_.file("ranks"), report = dir_.file("ranks.json");
  std::string text;
  ASSERT_EQ(
      run(tiles_.string() + " " + out.string() + " " + filters_ + " --report " + report.string(),
          &text, mpirun),
      0)
      << text;
  expectWholeFileClasses(out);
  expectReport(report, 2);
#endif
}

TEST_F(ClassifyTilesCli, InputsAreNeverOverwrittenAndBadBuffersAreErrors) {
  const auto before = bytesOf(tiles_ / "tile_0.las");
  // The output folder is the inputs' own.
  EXPECT_EQ(run(tiles_.string() + " " + tiles_.string() + " --ground --overwrite"), 1);
  EXPECT_EQ(bytesOf(tiles_ / "tile_0.las"), before);
  // Outputs already there are kept without --overwrite.
  const auto out = dir_.file("out");
  std::string text;
  ASSERT_EQ(run(tiles_.string() + " " + out.string() + " --noise", &text), 0) << text;
  const auto written = bytesOf(out / "tile_0.las");
  EXPECT_EQ(run(tiles_.string() + " " + out.string() + " --ground"), 1);
  EXPECT_EQ(bytesOf(out / "tile_0.las"), written);
  EXPECT_EQ(run(tiles_.string() + " " + out.string() + " --ground --overwrite", &text), 0) << text;
  // A file as the output of a dataset, there or not.
  EXPECT_EQ(run(tiles_.string() + " " + whole_.string() + " --ground --overwrite"), 1);
  EXPECT_EQ(run(tiles_.string() + " " + dir_.file("new.las").string() + " --ground"), 1);
  EXPECT_FALSE(std::filesystem::exists(dir_.file("new.las")));
  // Bad buffers: nothing written.
  for (const char* buffer : {"-1", "nan", "inf"}) {
    const auto target = dir_.file("bad");
    EXPECT_EQ(
        run(tiles_.string() + " " + target.string() + " --ground --buffer " + std::string(buffer)),
        1)
        << buffer;
    EXPECT_FALSE(std::filesystem::exists(target)) << buffer;
  }
  EXPECT_NE(run(tiles_.string() + " " + dir_.file("bad").string() + " --ground --buffer x"), 0);
  // A tile whose header declares no bounds (its neighbours could not be found), and a folder
  // without tiles.
  const auto unbounded = dir_.file("unbounded");
  std::filesystem::create_directories(unbounded);
  std::filesystem::copy_file(tiles_ / "tile_0.las", unbounded / "tile_0.las");
  test::writeBytes(unbounded / "zero.las",
                   test::makeLas({{.x = kOrigin.x + 60, .y = kOrigin.y, .z = 130.0}},
                                 {.pointFormat = 3, .scale = kScale}));
  EXPECT_EQ(run(unbounded.string() + " " + dir_.file("bad").string() + " --ground"), 1);
  const auto empty = dir_.file("empty");
  std::filesystem::create_directories(empty);
  EXPECT_EQ(run(empty.string() + " " + dir_.file("bad").string() + " --ground"), 1);
  EXPECT_FALSE(std::filesystem::exists(dir_.file("bad")));
  EXPECT_EQ(bytesOf(tiles_ / "tile_0.las"), before);
}

}  // namespace
}  // namespace pcv
