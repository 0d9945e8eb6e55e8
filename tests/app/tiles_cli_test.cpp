// `pcv convert --tiles`: a folder, files and a VPC converted into a folder of COPC tiles with a
// VPC over them (checked through the VPC reader and the --report JSON, and rendered: the VPC
// draws what its tiles given as files draw), same-named tiles refused,
// a failed tile naming itself with no file left under its name and no VPC, and, where pcv was
// built with MPI and mpirun is there, two ranks writing exactly the bytes one process writes.
#include <filesystem>
#include <fstream>
#include <iterator>

#include "io_test_util.hpp"
#include "json_report.hpp"
#include "pcv/io/copc_file.hpp"
#include "pcv/io/png_writer.hpp"
#include "pcv/io/virtual_point_cloud.hpp"
#include "synthetic_tiles.hpp"
#include "test_support.hpp"

namespace pcv {
namespace {

int pcv(const std::string& arguments, std::string* text) {
  return test::runCommand(test::pcvExecutable().string() + " " + arguments, text);
}

std::string bytesOf(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// The pixels of `a` that `b` has in no pixel within one of theirs (same colour): what differs
/// beyond a point rounded to a neighbouring pixel.
uint64_t pixelsWithoutTwinNearby(const Image& a, const Image& b) {
  uint64_t alone = 0;
  for (int y = 0; y < a.height; ++y) {
    for (int x = 0; x < a.width; ++x) {
      const uint32_t pixel = a.pixels[size_t(y) * size_t(a.width) + size_t(x)];
      bool twin = false;
      for (int dy = -1; dy <= 1 && !twin; ++dy) {
        for (int dx = -1; dx <= 1 && !twin; ++dx) {
          const int u = x + dx, v = y + dy;
          twin = u >= 0 && v >= 0 && u < b.width && v < b.height &&
                 b.pixels[size_t(v) * size_t(b.width) + size_t(u)] == pixel;
        }
      }
      alone += twin ? 0 : 1;
    }
  }
  return alone;
}

/// tiles/a.las (900 points), tiles/b.laz (1 600), tiles/more/c.las (400), tiles/d.las (40 000,
/// dense enough for an octree of many nodes).
std::filesystem::path writeDataset(const test::TempDir& dir) {
  const std::filesystem::path folder = dir.file("tiles");
  std::filesystem::create_directories(folder / "more");
  test::writeLasTile(folder / "a.las", 0, 0, 30);
  test::writeLazTile(folder / "b.laz", 1, 0, 40, 500);
  test::writeLasTile(folder / "more" / "c.las", 2, 0, 20);
  test::writeLasTile(folder / "d.las", 3, 0, 200);
  return folder;
}

TEST(TilesCli, AFolderBecomesCopcTilesAndAVpc) {
  test::TempDir dir;
  const std::filesystem::path folder = writeDataset(dir);
  const std::filesystem::path out = dir.file("out");
  const std::string report = dir.file("report.json").string();
  std::string text;
  ASSERT_EQ(pcv("convert --tiles -q " + folder.string() + " " + out.string() +
                    " --node-points 300 --report " + report,
                &text),
            0)
      << text;
  const nlohmann::json figures = test::readJsonReport(report)["convertTiles"];
  EXPECT_EQ(figures.value("tiles", 0), 4) << figures;
  EXPECT_EQ(figures.value("tilesDone", 0), 4) << figures;
  EXPECT_EQ(figures.value("tilesFailed", -1), 0) << figures;
  EXPECT_EQ(figures.value("points", 0ull), 42900u) << figures;
  EXPECT_GT(figures.value("pointsPerSecond", 0.0), 0.0) << figures;
  EXPECT_EQ(figures.value("vpc", ""), (out / "dataset.vpc").string()) << figures;

  const VirtualPointCloud vpc = readVirtualPointCloud(out / "dataset.vpc");
  ASSERT_EQ(vpc.tiles.size(), 4u);
  EXPECT_EQ(vpc.totalPoints(), 42900u);
  const char* names[] = {"a", "b", "d", "c"};  // the folder's files sorted by path
  const uint64_t counts[] = {900, 1600, 40000, 400};
  const std::string json = bytesOf(out / "dataset.vpc");
  for (int i = 0; i < 4; ++i) {
    const std::string name = std::string(names[i]) + ".copc.laz";
    SCOPED_TRACE(name);
    EXPECT_EQ(std::filesystem::path(vpc.tiles[size_t(i)].location), out / name);
    EXPECT_NE(json.find("\"./" + name + "\""), std::string::npos) << "a ./ href";
    EXPECT_EQ(vpc.tiles[size_t(i)].pointCount.value_or(0), counts[i]);
    const CopcFile copc(out / name);
    EXPECT_EQ(copc.pointCount(), counts[i]);
    ASSERT_TRUE(vpc.tiles[size_t(i)].nativeBounds.has_value());
    EXPECT_NEAR(vpc.tiles[size_t(i)].nativeBounds->min.x, copc.statedBounds().min.x, 1e-6);
    EXPECT_NEAR(vpc.tiles[size_t(i)].nativeBounds->max.y, copc.statedBounds().max.y, 1e-6);
  }
  // Tile c is the third column: its box starts two tiles east of the first.
  EXPECT_NEAR(vpc.tiles[3].nativeBounds->min.x, test::kEast + 2 * test::kTileSize, 3.0);

  // The converged VPC draws the points its COPC tiles given as files draw, at the same places.
  // It opens from its index (each tile's root a set of its own, where the files' roots share
  // the overview's set), and the compact layout stores positions relative to each batch's box,
  // so points on a pixel's edge may round to its neighbour: a few pixels differ, no more.
  std::string tiles;
  for (const VpcTile& tile : vpc.tiles) tiles += " " + tile.location;
  const std::string common = " --backend cpu --size 320x180 --out ";
  const std::string vpcReport = dir.file("vpc.json").string();
  const std::string filesReport = dir.file("files.json").string();
  ASSERT_EQ(pcv("render " + (out / "dataset.vpc").string() + common + dir.file("vpc.png").string() +
                    " --report " + vpcReport,
                &text),
            0)
      << text;
  ASSERT_EQ(
      pcv("render" + tiles + common + dir.file("files.png").string() + " --report " + filesReport,
          &text),
      0)
      << text;
  const uint64_t drawn = test::readJsonReport(vpcReport)["stream"].value("pointsDrawn", 0ull);
  EXPECT_GT(drawn, 10000u);
  EXPECT_EQ(test::readJsonReport(filesReport)["stream"].value("pointsDrawn", 0ull), drawn);
  const Image fromVpc = readPng(dir.file("vpc.png"));
  const Image fromFiles = readPng(dir.file("files.png"));
  const uint64_t lit = test::countLitPixels(fromVpc, kOpaqueBlack);
  EXPECT_GT(lit, 500u);
  // Two points of one pixel may also trade places (a tie decided by their sets' order).
  EXPECT_LE(pixelsWithoutTwinNearby(fromVpc, fromFiles), lit / 500);
  EXPECT_LE(pixelsWithoutTwinNearby(fromFiles, fromVpc), lit / 500);
}

TEST(TilesCli, AVpcOfTilesConvertsUnderAnotherName) {
  test::TempDir dir;
  const std::filesystem::path folder = writeDataset(dir);
  std::string text;
  ASSERT_EQ(pcv("vpc " + dir.file("in.vpc").string() + " " + folder.string(), &text), 0) << text;
  ASSERT_EQ(pcv("convert --tiles -q " + dir.file("in.vpc").string() + " " +
                    dir.file("out").string() + " --vpc tiles.vpc",
                &text),
            0)
      << text;
  const VirtualPointCloud vpc = readVirtualPointCloud(dir.file("out") / "tiles.vpc");
  EXPECT_EQ(vpc.totalPoints(), readVirtualPointCloud(dir.file("in.vpc")).totalPoints());
  EXPECT_FALSE(std::filesystem::exists(dir.file("out") / "dataset.vpc"));
}

TEST(TilesCli, SameNamedTilesAreRefusedBeforeAnyIsWritten) {
  test::TempDir dir;
  const std::filesystem::path folder = writeDataset(dir);
  test::writeLasTile(folder / "more" / "a.las", 4, 0, 10);
  std::string text;
  EXPECT_NE(pcv("convert --tiles -q " + folder.string() + " " + dir.file("out").string(), &text),
            0);
  EXPECT_NE(text.find((folder / "a.las").string()), std::string::npos) << text;
  EXPECT_NE(text.find((folder / "more" / "a.las").string()), std::string::npos) << text;
  EXPECT_FALSE(std::filesystem::exists(dir.file("out") / "d.copc.laz"));
}

TEST(TilesCli, AFailedTileIsNamedLeavesNoFileAndNoVpc) {
  test::TempDir dir;
  const std::filesystem::path folder = writeDataset(dir);
  std::vector<uint8_t> truncated = test::lasWithBounds(test::gridTile(5, 0, 10));
  truncated.resize(truncated.size() - 700);
  test::writeBytes(folder / "broken.las", truncated);
  const std::filesystem::path out = dir.file("out");
  const std::string report = dir.file("report.json").string();
  std::string text;
  EXPECT_NE(
      pcv("convert --tiles -q " + folder.string() + " " + out.string() + " --report " + report,
          &text),
      0);
  const nlohmann::json figures = test::readJsonReport(report)["convertTiles"];
  EXPECT_EQ(figures.value("tilesDone", 0), 4) << figures;
  EXPECT_EQ(figures.value("tilesFailed", 0), 1) << figures;
  ASSERT_EQ(figures["failures"].size(), 1u) << figures;
  EXPECT_EQ(figures["failures"][0].value("input", ""), (folder / "broken.las").string());
  EXPECT_TRUE(figures["vpc"].is_null()) << figures;
  EXPECT_NE(text.find((folder / "broken.las").string()), std::string::npos) << text;
  EXPECT_FALSE(std::filesystem::exists(out / "broken.copc.laz"));
  EXPECT_FALSE(std::filesystem::exists(out / "dataset.vpc"));
  EXPECT_TRUE(std::filesystem::exists(out / "a.copc.laz")) << "the other tiles go on";
  for (const auto& entry : std::filesystem::directory_iterator(out)) {
    EXPECT_TRUE(entry.path().string().ends_with(".copc.laz")) << "left behind: " << entry.path();
  }
}

TEST(TilesCli, TwoMpiRanksWriteTheSameBytesAsOneProcess) {
#ifndef PCV_MPIEXEC
  GTEST_SKIP() << "pcv was built without MPI";
#else
  if (!std::filesystem::exists(PCV_MPIEXEC)) GTEST_SKIP() << PCV_MPIEXEC << " is not there";
  test::TempDir dir;
  const std::filesystem::path folder = writeDataset(dir);
  std::string text;
  ASSERT_EQ(pcv("convert --tiles -q --node-points 300 " + folder.string() + " " +
                    dir.file("one").string(),
                &text),
            0)
      << text;
  // Two ranks on this machine over loopback; root may run them only when it says so.
  const std::string report = dir.file("ranks.json").string();
  const std::string mpirun =
      "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,tcp "
      "OMPI_MCA_btl_tcp_if_include=lo OMPI_MCA_oob_tcp_if_include=lo " +
      std::string(PCV_MPIEXEC) + " -n 2 --oversubscribe " + test::pcvExecutable().string();
  ASSERT_EQ(test::runCommand(mpirun + " convert --tiles -q --node-points 300 " + folder.string() +
                                 " " + dir.file("two").string() + " --report " + report,
                             &text),
            0)
      << text;
  const nlohmann::json figures = test::readJsonReport(report)["convertTiles"];
  EXPECT_EQ(figures.value("ranks", 0), 2) << figures;
  ASSERT_EQ(figures["perRank"].size(), 2u) << figures;
  EXPECT_GT(figures["perRank"][0].value("tiles", 0), 0) << figures;
  EXPECT_GT(figures["perRank"][1].value("tiles", 0), 0) << figures;
  for (const char* name : {"a.copc.laz", "b.copc.laz", "c.copc.laz", "d.copc.laz"}) {
    SCOPED_TRACE(name);
    const std::string one = bytesOf(dir.file("one") / name);
    EXPECT_FALSE(one.empty());
    EXPECT_TRUE(one == bytesOf(dir.file("two") / name));
  }
  // The VPCs differ in their items' datetime (when they were written); their tiles do not.
  const VirtualPointCloud one = readVirtualPointCloud(dir.file("one") / "dataset.vpc");
  const VirtualPointCloud two = readVirtualPointCloud(dir.file("two") / "dataset.vpc");
  ASSERT_EQ(one.tiles.size(), two.tiles.size());
  for (size_t i = 0; i < one.tiles.size(); ++i) {
    EXPECT_EQ(std::filesystem::path(one.tiles[i].location).filename(),
              std::filesystem::path(two.tiles[i].location).filename());
    EXPECT_EQ(one.tiles[i].pointCount, two.tiles[i].pointCount);
    EXPECT_EQ(one.tiles[i].nativeBounds->min, two.tiles[i].nativeBounds->min);
    EXPECT_EQ(one.tiles[i].nativeBounds->max, two.tiles[i].nativeBounds->max);
  }
#endif
}

}  // namespace
}  // namespace pcv
