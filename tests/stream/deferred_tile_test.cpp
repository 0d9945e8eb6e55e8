// A dataset opened from its index: the COPC tiles a VPC describes (pc:count, proj:bbox, a
// .copc.laz name) are known without being read, a stream over them opens while the files are
// not even there and converges to every point once they are, the header wins where the VPC is
// wrong (one warning a tile), a tile that cannot be read fails its node or, with
// --skip-bad-tiles, is left out with a warning, and items that describe less keep their header.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "pcv/core/camera_framing.hpp"
#include "pcv/core/error.hpp"
#include "pcv/io/virtual_point_cloud.hpp"
#include "pcv/raster/view_setup.hpp"
#include "pcv/stream/deferred_tile_source.hpp"
#include "pcv/stream/streamed_cloud.hpp"
#include "pcv/stream/tile_forest.hpp"
#include "pcv/stream/tile_set.hpp"
#include "pcv/stream/tile_states.hpp"
#include "synthetic_tiles.hpp"
#include "temp_dir.hpp"
#include "test_support.hpp"

namespace pcv {
namespace {

constexpr int kGrid = 40;  // points across a tile: 1 600, several COPC nodes
constexpr uint64_t kTilePoints = 40 * 40;

/// What a stream said until it converged (at most ~10 s).
struct Converged {
  bool done = false;
  std::vector<std::string> errors, warnings;
};

Converged converge(StreamedCloud& cloud, const Camera& camera) {
  Converged result;
  for (int frame = 0; frame < 2000 && !result.done; ++frame) {
    cloud.update(camera, 320, 180);
    for (std::string& error : cloud.takeErrors()) result.errors.push_back(std::move(error));
    for (std::string& warning : cloud.takeWarnings()) result.warnings.push_back(std::move(warning));
    result.done = cloud.converged();
    if (!result.done) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return result;
}

nlohmann::json readJson(const std::filesystem::path& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

void writeJson(const std::filesystem::path& path, const nlohmann::json& json) {
  std::ofstream(path) << json.dump();
}

class DeferredTiles : public ::testing::Test {
 protected:
  /// A VPC (as `pcv vpc` writes it) of `count` COPC tiles in a row, in folder "tiles", each a
  /// grid of `grid` x `grid` points.
  std::filesystem::path makeSet(int count, int grid = kGrid) {
    const std::filesystem::path folder = dir_.file("tiles");
    std::filesystem::create_directories(folder);
    std::vector<std::filesystem::path> tiles;
    for (int i = 0; i < count; ++i) {
      tiles.push_back(
          test::writeCopcTile(folder / ("t" + std::to_string(i) + ".copc.laz"), i, 0, grid));
    }
    const std::filesystem::path vpc = folder / "set.vpc";
    buildVirtualPointCloud(vpc, tiles);
    return vpc;
  }

  /// The tile set of `vpc` as a scene plans it: from the index where the VPC describes tiles.
  static TileSet indexedSet(const std::filesystem::path& vpc, bool skipBadTiles = false) {
    TileIndex index;
    const std::vector<std::string> files = expandTilePaths({vpc.string()}, nullptr, &index);
    TileSet set = describeTiles(files, nullptr, &index);
    set.skipBadTiles = skipBadTiles;
    return set;
  }

  test::TempDir dir_;
  std::unique_ptr<Renderer> renderer_ = createRenderer("cpu", {.storage = PointStorage::Compact});
  const StreamingOptions streaming_{.gpuMemoryBytes = 64ull << 20, .refineSpacingPx = 0.0};
};

TEST_F(DeferredTiles, AVpcDescribesItsCopcTilesWithoutReadingThem) {
  const std::filesystem::path vpc = makeSet(4);
  TileIndex index;
  const std::vector<std::string> files = expandTilePaths({vpc.string()}, nullptr, &index);
  ASSERT_EQ(files.size(), 4u);
  EXPECT_EQ(index.size(), 4u);
  for (const std::string& file : files) std::filesystem::remove(file);
  // The files are gone: only the index can describe them.
  const TileSet set = describeTiles(files, nullptr, &index);
  ASSERT_EQ(set.tiles.size(), 4u);
  EXPECT_EQ(set.pointCount, 4 * kTilePoints);
  for (const Tile& tile : set.tiles) {
    EXPECT_TRUE(tile.fromIndex);
    EXPECT_EQ(tile.format, TileFormat::Copc);
    EXPECT_FALSE(tile.bounds.empty());
    // The VPC's one coordinate system, held once for all its tiles.
    ASSERT_NE(tile.crs, nullptr);
    EXPECT_EQ(tile.crs.get(), set.tiles.front().crs.get());
  }
  EXPECT_DOUBLE_EQ(set.bounds.size().x, 4 * test::kTileSize - test::kTileSize / kGrid);
  EXPECT_THROW(describeTiles(files), InputError) << "without the index the headers are read";
}

TEST_F(DeferredTiles, ItemsThatDescribeLessKeepTheirHeaderRead) {
  const std::filesystem::path vpc = makeSet(3);
  const std::filesystem::path laz = test::writeLazTile(dir_.file("tiles/x.laz"), 5, 0, 10, 50);
  nlohmann::json json = readJson(vpc);
  json["features"][0]["properties"].erase("pc:count");
  json["features"][1]["properties"].erase("proj:bbox");
  // A plain LAZ name: the VPC cannot say whether it is COPC.
  nlohmann::json item = json["features"][2];
  item["id"] = "x";
  item["assets"]["data"]["href"] = "./x.laz";
  json["features"].push_back(item);
  writeJson(vpc, json);
  const TileSet set = indexedSet(vpc);
  ASSERT_EQ(set.tiles.size(), 4u);
  EXPECT_FALSE(set.tiles[0].fromIndex);
  EXPECT_FALSE(set.tiles[1].fromIndex);
  EXPECT_TRUE(set.tiles[2].fromIndex);
  EXPECT_FALSE(set.tiles[3].fromIndex);
  EXPECT_EQ(set.tiles[3].format, TileFormat::Laz) << "its header was read";
  EXPECT_EQ(set.pointCount, 3 * kTilePoints + 100);
}

TEST_F(DeferredTiles, AStreamOpensWithoutItsTilesAndConvergesToEveryPoint) {
  constexpr int kLargeGrid = 200;  // denser than a COPC root holds: a tree of several nodes
  const std::filesystem::path vpc = makeSet(6, kLargeGrid);
  const TileSet set = indexedSet(vpc);
  // Away while the stream opens: opening must not read a tile.
  const std::filesystem::path away = dir_.file("away");
  std::filesystem::rename(dir_.file("tiles"), away);
  const std::shared_ptr<const ForestNodeSource> forest = openTileForest(set);
  EXPECT_EQ(forest->forest().nodes.size(), 6u) << "a stand-in root a tile";
  StreamedCloud cloud(forest, *renderer_, streaming_);
  EXPECT_EQ(cloud.stats().residentPoints, 0u);
  std::filesystem::rename(away, dir_.file("tiles"));
  const Camera camera = frameBounds(cloud.bounds(), 16.0f / 9.0f);
  const Converged done = converge(cloud, camera);
  ASSERT_TRUE(done.done);
  EXPECT_TRUE(done.errors.empty()) << done.errors.front();
  EXPECT_TRUE(done.warnings.empty()) << done.warnings.front();
  EXPECT_EQ(cloud.stats().pointsDrawn, 6u * kLargeGrid * kLargeGrid) << "every point";
  const std::vector<TreeGrowth> grown = forest->growthSince(0);
  ASSERT_EQ(grown.size(), 6u) << "every tile read once";
  size_t nodes = 6;
  for (const TreeGrowth& growth : grown) nodes += growth.nodes.size();
  EXPECT_GT(nodes, 6u * 2) << "each tile streams as its octree";
  EXPECT_EQ(forest->growthSince(6).size(), 0u);
  // Each tile's state counts the nodes it grew.
  for (size_t tile = 0; tile < 6; ++tile) {
    const TileStatus status = tileStatus(cloud, *forest, firstTileMember(*forest, set) + tile);
    EXPECT_EQ(status.state, TileState::Resident) << tile;
    EXPECT_EQ(status.residentPoints, uint64_t(kLargeGrid) * kLargeGrid) << tile;
  }
}

TEST_F(DeferredTiles, TheConvergedImageIsTheImageOfTheHeaderIndex) {
  const std::filesystem::path vpc = makeSet(3);
  const auto image = [&](const TileSet& set) {
    // The same origin for both, so that the points round alike.
    auto renderer = createRenderer("cpu", {.storage = PointStorage::Compact});
    StreamedCloud cloud(openTileForest(set, {.overview = false}), *renderer, streaming_);
    const Camera camera = frameBounds(set.bounds, 16.0f / 9.0f);
    EXPECT_TRUE(converge(cloud, camera).done);
    Image out(320, 180, test::kPoisonPixel);
    renderer->render(cloud.update(camera, 320, 180),
                     makeViewTransform(camera, 320, 180, cloud.origin()), {},
                     {out.pixels.data(), 320, 180, MemorySpace::Host});
    return out;
  };
  const Image fromIndex = image(indexedSet(vpc));
  const Image fromHeaders = image(readTileSet(expandTilePaths({vpc.string()})));
  EXPECT_GT(test::countLitPixels(fromIndex, RenderSettings{}.background), 1000u);
  EXPECT_EQ(test::countDifferentPixels(fromIndex, fromHeaders), 0u);
}

TEST_F(DeferredTiles, TheHeaderWinsWhereTheVpcIsWrongWithOneWarningATile) {
  const std::filesystem::path vpc = makeSet(3);
  nlohmann::json json = readJson(vpc);
  json["features"][0]["properties"]["pc:count"] = 999;
  json["features"][1]["properties"]["proj:bbox"][0] =
      json["features"][1]["properties"]["proj:bbox"][0].get<double>() - 50.0;
  writeJson(vpc, json);
  const TileSet set = indexedSet(vpc);
  EXPECT_EQ(set.tiles[0].pointCount, 999u) << "as the VPC says, until the tile is read";
  const std::shared_ptr<const ForestNodeSource> forest = openTileForest(set);
  StreamedCloud cloud(forest, *renderer_, streaming_);
  const Converged done = converge(cloud, frameBounds(set.bounds, 16.0f / 9.0f));
  ASSERT_TRUE(done.done);
  EXPECT_TRUE(done.errors.empty());
  EXPECT_EQ(cloud.stats().pointsDrawn, 3 * kTilePoints) << "the headers' counts";
  EXPECT_EQ(done.warnings.size(), 2u) << "tiles 0 and 1, once each";
  EXPECT_EQ(tileStatus(cloud, *forest, firstTileMember(*forest, set)).residentPoints, kTilePoints)
      << "the tile's state counts what its header says";
}

TEST_F(DeferredTiles, ATileThatCannotBeReadFailsOrIsSkippedWithAWarning) {
  const std::filesystem::path vpc = makeSet(3);
  std::filesystem::remove(dir_.file("tiles/t1.copc.laz"));
  for (const bool skip : {false, true}) {
    const TileSet set = indexedSet(vpc, skip);
    auto renderer = createRenderer("cpu", {.storage = PointStorage::Compact});
    StreamedCloud cloud(openTileForest(set), *renderer, streaming_);
    const Converged done = converge(cloud, frameBounds(set.bounds, 16.0f / 9.0f));
    ASSERT_TRUE(done.done) << skip;
    EXPECT_EQ(cloud.stats().pointsDrawn, 2 * kTilePoints) << skip;
    EXPECT_EQ(done.errors.size(), skip ? 0u : 1u) << skip;
    EXPECT_EQ(done.warnings.size(), skip ? 1u : 0u) << skip;
  }
}

}  // namespace
}  // namespace pcv
