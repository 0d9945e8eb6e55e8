// `pcv info`, `pcv render` and `pcv bench` of a folder of tiles: the dataset's figures in the
// --report JSON (tiles, points, formats, bounds, coordinate system), every point of every tile
// drawn once the stream converges (and timed so by bench), and two coordinate systems refused.
#include <filesystem>
#include <set>

#include "io_test_util.hpp"
#include "json_report.hpp"
#include "pcv/io/png_writer.hpp"
#include "synthetic_tiles.hpp"
#include "test_support.hpp"

namespace pcv {
namespace {

/// Three tiles in a row: a COPC tile and two LAS tiles, 1 600 + 900 + 400 points.
std::filesystem::path writeDataset(const test::TempDir& dir) {
  const std::filesystem::path folder = dir.file("tiles");
  std::filesystem::create_directories(folder / "more");
  test::writeCopcTile(folder / "a.copc.laz", 0, 0, 40);
  test::writeLasTile(folder / "b.las", 1, 0, 30);
  test::writeLasTile(folder / "more" / "c.las", 2, 0, 20);
  return folder;
}

int pcv(const std::string& arguments, std::string* text) {
  return test::runCommand(test::pcvExecutable().string() + " " + arguments, text);
}

TEST(DatasetCli, InfoOfAFolderReportsItsTilesAndTotals) {
  test::TempDir dir;
  const std::filesystem::path folder = writeDataset(dir);
  const std::string report = dir.file("info.json").string();
  std::string text;
  ASSERT_EQ(pcv("info " + folder.string() + " --report " + report, &text), 0) << text;
  const nlohmann::json dataset =
      test::readJsonReport(report).value("dataset", nlohmann::json::object());
  EXPECT_EQ(dataset.value("tileCount", 0u), 3u) << dataset;
  EXPECT_EQ(dataset.value("points", 0ull), 2900u) << dataset;
  EXPECT_EQ(dataset["formats"].value("COPC", 0u), 1u) << dataset;
  EXPECT_EQ(dataset["formats"].value("LAS", 0u), 2u) << dataset;
  EXPECT_TRUE(dataset["crs"].is_null()) << "the tiles state none";
  EXPECT_NEAR(dataset["bounds"]["min"][0].get<double>(), test::kEast, 2.0) << dataset;
  EXPECT_NEAR(dataset["bounds"]["max"][0].get<double>(), test::kEast + 3 * test::kTileSize, 3.0)
      << dataset;
  ASSERT_EQ(dataset["tiles"].size(), 3u);
  EXPECT_EQ(dataset["tiles"][2].value("path", ""), (folder / "more" / "c.las").string());
  EXPECT_EQ(dataset["tiles"][2].value("points", 0ull), 400u);
}

TEST(DatasetCli, InfoRefusesTilesInTwoCoordinateSystems) {
  test::TempDir dir;
  const std::filesystem::path folder = writeDataset(dir);
  test::writeBytes(folder / "d.las",
                   test::withWkt(test::lasWithBounds(test::gridTile(3, 0, 4)), "PROJCS[\"B\"]"));
  std::string text;
  EXPECT_NE(pcv("info " + folder.string(), &text), 0) << text;
}

TEST(DatasetCli, RenderOfAFolderStreamsEveryTileToConvergence) {
  test::TempDir dir;
  const std::filesystem::path folder = writeDataset(dir);
  const std::string report = dir.file("render.json").string();
  const std::string png = dir.file("tiles.png").string();
  std::string text;
  ASSERT_EQ(pcv("render --backend cpu " + folder.string() + " --size 320x180 --out " + png +
                    " --report " + report,
                &text),
            0)
      << text;
  const nlohmann::json stream =
      test::readJsonReport(report).value("stream", nlohmann::json::object());
  EXPECT_TRUE(stream.value("converged", false)) << stream;
  EXPECT_EQ(stream.value("pointsInFile", 0ull), 2900u) << stream;
  EXPECT_EQ(stream.value("pointsDrawn", 0ull), 2900u) << stream;
  EXPECT_GT(test::countLitPixels(readPng(png), kOpaqueBlack), 500u);
}

/// `pcv bench --backend cpu INPUT --size 160x90 --methods compact ARGUMENTS --json F`: the JSON
/// it wrote, or null (and a failure added) when it failed.
nlohmann::json benchFigures(const test::TempDir& dir, const std::string& input,
                            const std::string& arguments) {
  const std::string json = dir.file("bench.json").string();
  std::string text;
  if (pcv("bench --backend cpu " + input + " --size 160x90 --methods compact " + arguments +
              " --json " + json,
          &text) != 0) {
    ADD_FAILURE() << text;
    return nullptr;
  }
  return test::readJsonReport(json);
}

TEST(DatasetCli, BenchOfAFolderTimesTheConvergedView) {
  test::TempDir dir;
  const std::filesystem::path folder = writeDataset(dir);
  const nlohmann::json figures = benchFigures(dir, folder.string(), "--frames 2 --warmup 1");
  ASSERT_FALSE(figures.is_null());
  EXPECT_EQ(figures.value("points", 0ull), 2900u) << "every tile's points drawn" << figures;
  ASSERT_EQ(figures["inputs"].size(), 1u) << figures;
  ASSERT_EQ(figures["results"].size(), 1u) << figures;
  const nlohmann::json& row = figures["results"][0];
  EXPECT_EQ(row.value("viewpoint", ""), "framed") << row;
  EXPECT_EQ(row.value("method", ""), "compact") << row;
  EXPECT_GT(row["total_ms"].value("median", 0.0), 0.0) << row;
  // The cylinders' synthetic filter and clip cases are not the data's: refused with files.
  std::string text;
  EXPECT_NE(
      pcv("bench --backend cpu " + folder.string() + " --frames 1 --filter-modes first", &text), 0)
      << text;
  EXPECT_NE(pcv("bench --backend cpu " + folder.string() + " --frames 1 --order original", &text),
            0)
      << text;
}

TEST(DatasetCli, BenchOfFilesTimesQualityPresetsAndFilters) {
  test::TempDir dir;
  const std::filesystem::path folder = writeDataset(dir);
  const nlohmann::json figures = benchFigures(
      dir, folder.string(), "--frames 1 --warmup 0 --quality-modes base,edl --classes 2");
  ASSERT_FALSE(figures.is_null());
  std::set<std::string> rows;
  for (const nlohmann::json& row : figures["results"]) {
    rows.insert(row.value("method", ""));
  }
  EXPECT_EQ(rows, (std::set<std::string>{"compact+filter", "compact+edl+filter"})) << figures;
}

TEST(DatasetCli, BenchOfOneFileReadsItWhole) {
  test::TempDir dir;
  const std::filesystem::path file = test::writeLasTile(dir.file("one.las"), 0, 0, 30);
  const nlohmann::json figures = benchFigures(dir, file.string(), "--frames 1 --warmup 0");
  ASSERT_FALSE(figures.is_null());
  EXPECT_EQ(figures.value("points", 0ull), 900u) << figures;
  ASSERT_EQ(figures["results"].size(), 1u) << figures;
}

}  // namespace
}  // namespace pcv
