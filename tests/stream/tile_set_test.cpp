// A dataset of tiles: folders expand to their tiles, every header is read (in parallel) into
// counts and bounds, tiles in different coordinate systems are refused naming two of them,
// 10 000 tiles open and decode under a limit of 1 024 open files, COPC files stay few in the open
// cache, a LAZ tile's sample is its chunks' first points and a LAS tile's every k-th record, and
// COPC, LAS and LAZ tiles stream as one forest (their overview first, drawn in the first frame)
// to every point exactly once, as the in-core read shows. The first tile that fails ends the
// work and is the one reported (or, asked to skip, failed tiles are left out).
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <array>
#include <atomic>
#include <cmath>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <thread>

#include "pcv/core/camera_framing.hpp"
#include "pcv/core/error.hpp"
#include "pcv/core/parallel.hpp"
#include "pcv/io/copc_writer.hpp"
#include "pcv/io/point_records.hpp"
#include "pcv/io/point_sample.hpp"
#include "pcv/io/virtual_point_cloud.hpp"
#include "pcv/raster/view_setup.hpp"
#include "pcv/stream/streamed_cloud.hpp"
#include "pcv/stream/tile_forest.hpp"
#include "pcv/stream/tile_set.hpp"
#include "pcv/stream/tile_sources.hpp"
#include "http_test_server.hpp"
#include "temp_dir.hpp"
#include "pcv/io/remote_source.hpp"
#include "synthetic_point_files.hpp"
#include "synthetic_tiles.hpp"
#include "test_support.hpp"

namespace pcv {
namespace {

namespace fs = std::filesystem;
using test::SyntheticPoint;

using test::gridTile;
using test::kEast;
using test::kNorth;
using test::kTileSize;
using test::lasWithBounds;
using test::withWkt;
using test::writeCopcTile;
using test::writeLasTile;
using test::writeLazTile;

/// The soft limit on open files lowered for one test, and restored after.
class OpenFileLimit {
 public:
  explicit OpenFileLimit(rlim_t files) {
    getrlimit(RLIMIT_NOFILE, &saved_);
    rlimit lowered = saved_;
    lowered.rlim_cur = std::min(files, saved_.rlim_max);
    setrlimit(RLIMIT_NOFILE, &lowered);
  }
  ~OpenFileLimit() { setrlimit(RLIMIT_NOFILE, &saved_); }
  OpenFileLimit(const OpenFileLimit&) = delete;
  OpenFileLimit& operator=(const OpenFileLimit&) = delete;

 private:
  rlimit saved_{};
};

class TileSetTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("pcv_tiles_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(TileSetTest, FolderExpandsToItsTilesSortedAndHeadersGiveTotals) {
  fs::create_directories(dir_ / "b");
  writeLasTile(dir_ / "b" / "t11.las", 1, 1, 10);
  writeLasTile(dir_ / "a.LAS", 0, 0, 20);
  writeCopcTile(dir_ / "t10.copc.laz", 1, 0, 30);
  test::writeText(dir_ / "notes.txt", "not a tile");
  const std::vector<std::string> files = expandTilePaths({dir_.string()});
  ASSERT_EQ(files.size(), 3u);
  EXPECT_EQ(files[0], (dir_ / "a.LAS").string());
  EXPECT_EQ(files[1], (dir_ / "b" / "t11.las").string());
  EXPECT_EQ(files[2], (dir_ / "t10.copc.laz").string());
  EXPECT_TRUE(namesDataset({dir_.string()}));
  EXPECT_FALSE(namesDataset(files));

  const TileSet set = readTileSet(files);
  ASSERT_EQ(set.tiles.size(), 3u);
  EXPECT_EQ(set.pointCount, 100u + 400u + 900u);
  EXPECT_EQ(set.count(TileFormat::Las), 2u);
  EXPECT_EQ(set.count(TileFormat::Copc), 1u);
  EXPECT_EQ(set.tiles[2].format, TileFormat::Copc);
  EXPECT_NEAR(set.bounds.min.x, kEast + 0.5 * kTileSize / 20, 0.1);  // a.LAS: 20 across
  EXPECT_NEAR(set.bounds.max.x, kEast + 2 * kTileSize - 0.5 * kTileSize / 30, 0.1);
  EXPECT_NEAR(set.bounds.max.y, kNorth + 2 * kTileSize - 0.5 * kTileSize / 10, 0.1);
}

TEST_F(TileSetTest, AVirtualPointCloudExpandsToItsTilesInItsOrder) {
  fs::create_directories(dir_ / "tiles");
  writeLasTile(dir_ / "tiles" / "b.las", 1, 0, 10);
  writeLasTile(dir_ / "tiles" / "a.las", 0, 0, 20);
  const std::vector<std::filesystem::path> tiles = {dir_ / "tiles" / "b.las",
                                                    dir_ / "tiles" / "a.las"};
  const fs::path vpc = dir_ / "set.VPC";
  buildVirtualPointCloud(vpc, tiles);
  EXPECT_TRUE(namesDataset({vpc.string()}));
  const std::vector<std::string> files = expandTilePaths({vpc.string()});
  ASSERT_EQ(files.size(), 2u);
  EXPECT_TRUE(fs::equivalent(files[0], tiles[0]));
  EXPECT_TRUE(fs::equivalent(files[1], tiles[1]));
  EXPECT_EQ(readTileSet(files).pointCount, 100u + 400u);

  // A tile given by URL stays a URL (read by range requests); a VPC without tiles is refused.
  test::writeText(dir_ / "remote.vpc",
                  R"({"type": "FeatureCollection", "features": [{"type": "Feature",
                      "stac_version": "1.0.0", "id": "t", "geometry": null, "properties": {},
                      "assets": {"data": {"href": "https://example.org/t.copc.laz"}}}]})");
  EXPECT_EQ(expandTilePaths({(dir_ / "remote.vpc").string()}),
            std::vector<std::string>{"https://example.org/t.copc.laz"});
  test::writeText(dir_ / "empty.vpc", R"({"type": "FeatureCollection", "features": []})");
  EXPECT_THROW(expandTilePaths({(dir_ / "empty.vpc").string()}), InputError);
}

TEST_F(TileSetTest, RejectsAFolderWithoutTilesAndAFileThatIsNotATile) {
  fs::create_directories(dir_ / "empty");
  EXPECT_THROW(expandTilePaths({(dir_ / "empty").string()}), InputError);
  test::writeText(dir_ / "points.xyz", "1 2 3\n");
  writeLasTile(dir_ / "a.las", 0, 0, 4);
  EXPECT_THROW(readTileSet({(dir_ / "a.las").string(), (dir_ / "points.xyz").string()}),
               InputError);
}

TEST_F(TileSetTest, MixedCoordinateSystemsAreAnErrorNamingTwoTiles) {
  const std::string wktA = "PROJCS[\"ETRS89 / UTM zone 32N\"]";
  const std::string wktB = "PROJCS[\"WGS 84 / UTM zone 33N\"]";
  const auto write = [&](const std::string& name, int column, const std::string& wkt) {
    const std::vector<uint8_t> las = lasWithBounds(gridTile(column, 0, 4));
    test::writeBytes(dir_ / name, wkt.empty() ? las : withWkt(las, wkt));
    return (dir_ / name).string();
  };
  const std::string a0 = write("a0.las", 0, wktA), a1 = write("a1.las", 1, wktA);
  const std::string b = write("b.las", 2, wktB), none = write("none.las", 3, "");

  const TileSet same = readTileSet({a0, a1});
  EXPECT_EQ(same.crs.wkt, wktA);
  EXPECT_EQ(same.pointCount, 32u) << "the WKT record does not move the points";
  for (const std::string& other : {b, none}) {
    try {
      readTileSet({a0, a1, other});
      ADD_FAILURE() << "tiles in two coordinate systems were accepted";
    } catch (const InputError& error) {
      const std::string what = error.what();
      EXPECT_NE(what.find("a0.las"), std::string::npos) << what;
      EXPECT_NE(what.find(fs::path(other).filename().string()), std::string::npos) << what;
    }
  }
}

TEST_F(TileSetTest, TenThousandTilesOpenAndDecodeUnderAThousandOpenFiles) {
  constexpr int kColumns = 100, kTiles = 10'000;
  std::vector<std::string> files(kTiles);
  parallelForEachDynamic(files.size(), [&](size_t i) {
    const int column = int(i) % kColumns, row = int(i) / kColumns;
    files[i] = writeLasTile(dir_ / ("t" + std::to_string(i) + ".las"), column, row, 2).string();
  });
  const OpenFileLimit limit(1024);
  const TileSet set = readTileSet(expandTilePaths({dir_.string()}));
  ASSERT_EQ(set.tiles.size(), size_t(kTiles));
  EXPECT_EQ(set.pointCount, uint64_t(kTiles) * 4);
  const std::shared_ptr<const ForestNodeSource> forest = openTileForest(set);
  ASSERT_EQ(forest->forest().nodes.size(), size_t(kTiles) + 1)
      << "a LAS tile is one node, and their overview one more";
  std::atomic<uint64_t> decoded{0};
  parallelForEachDynamic(forest->forest().nodes.size(),
                         [&](size_t node) { decoded += forest->decodeNode(node).size(); });
  EXPECT_EQ(decoded.load(), uint64_t(kTiles) * 4);
}

TEST_F(TileSetTest, CopcTilesKeepOnlyAFewFilesOpen) {
  std::vector<std::string> files;
  for (int i = 0; i < 6; ++i) {
    files.push_back(writeCopcTile(dir_ / ("c" + std::to_string(i) + ".copc.laz"), i, 0, 40));
  }
  const TileSet set = readTileSet(files);
  const auto open = std::make_shared<OpenCopcFiles>(2);
  std::vector<std::shared_ptr<const NodeSource>> tiles;
  for (const Tile& tile : set.tiles) {
    tiles.push_back(std::make_shared<const CopcTileSource>(tile, open));
  }
  EXPECT_EQ(open->openCount(), 0u) << "the hierarchies are read without opening the files";
  const ForestNodeSource forest(tiles);
  uint64_t decoded = 0;
  for (size_t node = 0; node < forest.forest().nodes.size(); ++node) {
    const PointCloud cloud = forest.decodeNode(node);
    EXPECT_EQ(cloud.size(), forest.forest().nodes[node].pointCount);
    decoded += cloud.size();
  }
  EXPECT_EQ(decoded, set.pointCount);
  EXPECT_LE(open->openCount(), 2u);
}

TEST_F(TileSetTest, AReopenedCopcTileKeepsTheColorScaleOfItsFirstOpening) {
  const std::string a = writeCopcTile(dir_ / "a.copc.laz", 0, 0, 30);
  const std::string b = writeCopcTile(dir_ / "b.copc.laz", 1, 0, 30);
  const CopcFile first(a);
  EXPECT_GT(first.channelScale(), 0.0);
  EXPECT_LT(first.channelScale(), 1.0) << "16-bit colours";
  // A scale given is used as it is: the root is not read for it.
  const CopcFile given(a, {}, 2.0 * first.channelScale());
  EXPECT_EQ(given.channelScale(), 2.0 * first.channelScale());
  EXPECT_NE(given.decodeNode(0).points[0].rgba, first.decodeNode(0).points[0].rgba);
  // The cache of open files closes a and opens it again with the scale it had.
  OpenCopcFiles files(1);
  const double scaleOfA = files.get(a)->channelScale();
  files.get(b);
  EXPECT_EQ(files.openCount(), 1u);
  const std::shared_ptr<const CopcFile> reopened = files.get(a);
  EXPECT_EQ(reopened->channelScale(), scaleOfA);
  EXPECT_EQ(reopened->decodeNode(0).points[0].rgba, first.decodeNode(0).points[0].rgba);
}

TEST_F(TileSetTest, ACopcRootIsDecodedOnceForItsPointsAndItsColorScale) {
  const std::string a = writeCopcTile(dir_ / "a.copc.laz", 0, 0, 30);
  // The scale asked for first: the root is decoded for it, then again for its points.
  const CopcFile scaledFirst(a);
  const double scale = scaledFirst.channelScale();
  EXPECT_LT(scale, 1.0) << "16-bit colours";
  const PointCloud expected = scaledFirst.decodeNode(0);
  EXPECT_EQ(scaledFirst.chunksDecoded(), 2u);
  // The root decoded first decides the scale with the same decode, and to the same value.
  const CopcFile decodedFirst(a);
  EXPECT_FALSE(decodedFirst.knownChannelScale());
  const PointCloud root = decodedFirst.decodeNode(0);
  EXPECT_EQ(decodedFirst.chunksDecoded(), 1u);
  ASSERT_TRUE(decodedFirst.knownChannelScale());
  EXPECT_EQ(*decodedFirst.knownChannelScale(), scale);
  EXPECT_EQ(decodedFirst.channelScale(), scale);
  ASSERT_EQ(root.size(), expected.size());
  for (size_t i = 0; i < root.size(); ++i) {
    ASSERT_EQ(root.points[i].rgba, expected.points[i].rgba) << i;
    ASSERT_EQ(root.points[i].x, expected.points[i].x) << i;
  }
  // A scale given at the opening is known at once.
  EXPECT_EQ(CopcFile(a, {}, scale).knownChannelScale(), scale);
}

TEST_F(TileSetTest, StreamedCopcTilesDecodeEachChunkOnce) {
  std::vector<std::string> files;
  for (int i = 0; i < 4; ++i) {
    files.push_back(writeCopcTile(dir_ / ("c" + std::to_string(i) + ".copc.laz"), i, 0, 30));
  }
  const TileSet set = readTileSet(files);
  const auto open = std::make_shared<OpenCopcFiles>(files.size());
  std::vector<std::shared_ptr<const NodeSource>> tiles;
  for (const Tile& tile : set.tiles) {
    tiles.push_back(std::make_shared<const CopcTileSource>(tile, open));
  }
  const ForestNodeSource forest(tiles);
  uint64_t nodes = 0;
  for (size_t node = 0; node < forest.forest().nodes.size(); ++node) {
    if (forest.forest().nodes[node].pointCount == 0) continue;
    EXPECT_EQ(forest.decodeNode(node).size(), forest.forest().nodes[node].pointCount);
    ++nodes;
  }
  uint64_t chunks = 0;
  for (const std::string& file : files) chunks += open->get(file)->chunksDecoded();
  EXPECT_EQ(chunks, nodes) << "no chunk decoded for a colour scale alone";
}

TEST_F(TileSetTest, AWholeTileLeavesOutExactlyTheRecordsShownElsewhere) {
  const std::string path = writeLazTile(dir_ / "t.laz", 0, 0, 20, 150).string();
  const Tile tile = readTileSet({path}).tiles.front();
  ASSERT_EQ(tile.pointCount, 400u);
  // Runs of every length: the first record, two together, a lone one, the last.
  const std::vector<uint64_t> shown{0, 150, 151, 300, 399};
  const PointCloud all = WholeTileSource(tile, {}).decodeNode(0);
  const PointCloud rest = WholeTileSource(tile, {}, shown).decodeNode(0);
  ASSERT_FALSE(all.attributes.empty());
  ASSERT_EQ(rest.size(), all.size() - shown.size());
  size_t from = 0, skip = 0;
  for (size_t i = 0; i < rest.size(); ++i, ++from) {
    while (skip < shown.size() && shown[skip] == from) {
      ++skip;
      ++from;
    }
    ASSERT_EQ(rest.points[i].x, all.points[from].x) << i;
    ASSERT_EQ(rest.points[i].y, all.points[from].y) << i;
    ASSERT_EQ(rest.points[i].rgba, all.points[from].rgba) << i;
    for (size_t a = 0; a < all.attributes.size(); ++a) {
      ASSERT_EQ(rest.attributes[a].value(i), all.attributes[a].value(from))
          << all.attributes[a].name;
    }
  }
  for (const ScalarAttribute& attribute : rest.attributes) EXPECT_EQ(attribute.size(), rest.size());
}

/// Every point's world position (to the millimetre), sorted: what two reads must agree on.
std::vector<std::array<int64_t, 3>> worldPoints(const PointCloud& cloud) {
  std::vector<std::array<int64_t, 3>> points;
  for (const Point& p : cloud.points) {
    points.push_back({std::llround((double(p.x) + cloud.origin.x) * 1000),
                      std::llround((double(p.y) + cloud.origin.y) * 1000),
                      std::llround((double(p.z) + cloud.origin.z) * 1000)});
  }
  std::sort(points.begin(), points.end());
  return points;
}

std::vector<std::array<int64_t, 3>> worldPoints(const NodeSource& source) {
  PointCloud all;
  for (size_t node = 0; node < source.forest().nodes.size(); ++node) {
    const PointCloud decoded = source.decodeNode(node);
    all.origin = decoded.origin;
    all.points.insert(all.points.end(), decoded.points.begin(), decoded.points.end());
  }
  return worldPoints(all);
}

TEST_F(TileSetTest, SamplesLazChunkFirstPointsAndEveryKthLasRecord) {
  const fs::path laz = writeLazTile(dir_ / "t.laz", 0, 0, 30, 100);
  const fs::path las = writeLasTile(dir_ / "t.las", 1, 0, 30);
  const PointSample lazSample = readPointSample(laz, 1000);
  const std::vector<uint64_t> chunkStarts = {0, 100, 200, 300, 400, 500, 600, 700, 800};
  EXPECT_EQ(lazSample.recordIndices, chunkStarts);
  const PointSample lasSample = readPointSample(las, 10);
  const std::vector<uint64_t> everyNinetieth = {0, 90, 180, 270, 360, 450, 540, 630, 720, 810};
  EXPECT_EQ(lasSample.recordIndices, everyNinetieth);
  for (const auto& [path, sample] : {std::pair{laz, &lazSample}, std::pair{las, &lasSample}}) {
    const PointCloud whole = readPointCloud(path);
    ASSERT_EQ(sample->cloud.size(), sample->recordIndices.size());
    for (size_t i = 0; i < sample->cloud.size(); ++i) {
      const Point& p = sample->cloud.points[i];
      const Point& q = whole.points[sample->recordIndices[i]];
      EXPECT_NEAR(double(p.x) + sample->cloud.origin.x, double(q.x) + whole.origin.x, 1e-3);
      EXPECT_NEAR(double(p.y) + sample->cloud.origin.y, double(q.y) + whole.origin.y, 1e-3);
      EXPECT_NEAR(double(p.z) + sample->cloud.origin.z, double(q.z) + whole.origin.z, 1e-3);
      EXPECT_EQ(p.rgba, q.rgba) << path << " point " << i;
    }
  }
}

/// Frames until the stream converges (at most ~20 s); the last frame's sets.
std::vector<PointSetId> converge(StreamedCloud& cloud, const Camera& camera, int width,
                                 int height) {
  for (int frame = 0; frame < 4000; ++frame) {
    std::vector<PointSetId> sets = cloud.update(camera, width, height);
    if (cloud.converged()) return sets;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ADD_FAILURE() << "no convergence";
  return {};
}

TEST_F(TileSetTest, CopcAndLasTilesStreamAsOneForestToTheInCoreImage) {
  std::vector<std::string> files = {writeCopcTile(dir_ / "a.copc.laz", 0, 0, 60).string(),
                                    writeLasTile(dir_ / "b.las", 1, 0, 50).string(),
                                    writeCopcTile(dir_ / "c.copc.laz", 0, 1, 40).string(),
                                    writeLazTile(dir_ / "d.laz", 1, 1, 30, 100).string()};
  const TileSet set = readTileSet(files);
  const std::shared_ptr<const ForestNodeSource> forest =
      openTileForest(set, {.lasSamplePoints = 100});
  ASSERT_EQ(forest->forest().trees.size(), 5u) << "the overview, then the tiles";
  const uint64_t overviewPoints = forest->forest().nodes[0].pointCount;
  uint64_t copcRootPoints = 0, copcChunks = 0;
  for (const std::string& copc : {files[0], files[2]}) {
    const CopcFile file(copc);
    for (const CopcNode& node : file.hierarchy().nodes) {
      if (node.key.level == 0) copcRootPoints += node.pointCount;
      copcChunks += node.pointCount > 0;
    }
  }
  EXPECT_EQ(overviewPoints, 100u + 9u + copcRootPoints)
      << "LAS: every 25th of 2500; LAZ: 9 chunks' first points; the COPC tiles' roots";
  for (const SourceNode& node : forest->forest().nodes) {
    if (node.tree > 0 && node.key.level == 0 && (node.tree == 1 || node.tree == 3)) {
      EXPECT_EQ(node.pointCount, 0u) << "a COPC root drawn in the overview is empty in its tree";
    }
  }
  const std::shared_ptr<const ForestNodeSource> streamedRoots =
      openTileForest(set, {.lasSamplePoints = 100, .copcRootPointLimit = 10});
  EXPECT_EQ(streamedRoots->forest().nodes[0].pointCount, 109u + copcChunks)
      << "roots past the limit stream; their chunks' first points are in the overview instead";

  constexpr int kWidth = 320, kHeight = 180;
  auto streamedRenderer = createRenderer("cpu", {.storage = PointStorage::Compact});
  StreamedCloud cloud(forest, *streamedRenderer,
                      {.gpuMemoryBytes = 64ull << 20, .decodeThreads = 2, .refineSpacingPx = 0.0});
  const Camera camera = frameBounds(set.bounds, float(kWidth) / kHeight);
  cloud.update(camera, kWidth, kHeight);
  EXPECT_GE(cloud.stats().pointsDrawn, overviewPoints) << "the overview is in the first frame";
  const std::vector<PointSetId> sets = converge(cloud, camera, kWidth, kHeight);
  EXPECT_EQ(cloud.stats().pointsDrawn, set.pointCount) << "every point of every tile";
  Image streamed(kWidth, kHeight, test::kPoisonPixel);
  streamedRenderer->render(sets, makeViewTransform(camera, kWidth, kHeight, cloud.origin()), {},
                           {streamed.pixels.data(), kWidth, kHeight, MemorySpace::Host});

  // In core: the tiles read whole and merged. Their points are the forest's, in world units; the
  // image differs only where the compact layout rounds a set's positions in its own box (one set
  // here, one per node there), which moves a few points by a pixel.
  PointCloud merged = readPointCloud(files[0]);
  for (size_t i = 1; i < files.size(); ++i) appendPointCloud(merged, readPointCloud(files[i]));
  EXPECT_EQ(worldPoints(merged), worldPoints(*forest));
  auto inCoreRenderer = createRenderer("cpu", {.storage = PointStorage::Compact});
  const PointSetId all = inCoreRenderer->addSet(merged.points);
  Image inCore(kWidth, kHeight, test::kPoisonPixel);
  inCoreRenderer->render(std::vector<PointSetId>{all},
                         makeViewTransform(camera, kWidth, kHeight, merged.origin), {},
                         {inCore.pixels.data(), kWidth, kHeight, MemorySpace::Host});
  const uint64_t lit = test::countLitPixels(inCore, kOpaqueBlack);
  EXPECT_GT(lit, uint64_t(kWidth * kHeight / 10));
  EXPECT_NEAR(double(test::countLitPixels(streamed, kOpaqueBlack)), double(lit), 0.01 * lit);
  EXPECT_EQ(test::countLitPixels(streamed, test::kPoisonPixel), uint64_t(kWidth * kHeight));
}

TEST(TileSetNames, AUrlIsNamedByItsPathWithoutQuery) {
  EXPECT_TRUE(hasTileExtension("https://h/d/t.copc.laz?sig=1&x=.vpc"));
  EXPECT_TRUE(hasTileExtension("https://h/d/T.LAS#f"));
  EXPECT_FALSE(hasTileExtension("https://h/d/index.vpc?name=t.laz"));
  EXPECT_TRUE(namesDataset({"https://h/d/index.vpc?sig=1"}));
  EXPECT_FALSE(namesDataset({"https://h/d/t.laz?name=x.vpc"}));
}

TEST(TileSetFailures, TheFirstFailedTileEndsTheWorkAndIsTheOneReported) {
  test::TempDir dir;
  const std::string tile = test::writeLasTile(dir.file("a.las"), 0, 0, 10).string();
  test::HttpTestServer server;
  server.putFile("a.las", tile);
  const RemoteOptions saved = remoteOptions();
  RemoteOptions one = saved;
  one.connections = 1;  // one thread: tiles are tried strictly in order
  setRemoteOptions(one);
  forgetRemoteSources();
  // Tile 2 and tile 5 are missing; the others are the same file under other names.
  std::vector<std::string> files;
  for (int i = 0; i < 50; ++i) {
    const std::string name = "t" + std::to_string(i) + ".las";
    if (i != 2 && i != 5) server.putFile(name, tile);
    files.push_back(server.url(name));
  }
  std::string firstError, aloneError;
  try {
    describeTiles(files);
    ADD_FAILURE() << "a dataset with missing tiles was described";
  } catch (const InputError& error) {
    firstError = error.what();
  }
  try {
    describeTiles({files[2]});
  } catch (const InputError& error) {
    aloneError = error.what();
  }
  setRemoteOptions(saved);
  forgetRemoteSources();
  EXPECT_EQ(firstError, aloneError) << "the lowest failed tile is the one reported";
  for (int i = 3; i < 50; ++i) {
    EXPECT_EQ(server.requestsFor("t" + std::to_string(i) + ".las"), 0u) << "tile " << i;
  }
  // Asked to skip, every tile is tried and the two missing ones are left out.
  std::vector<std::string> skipped;
  const TileSet set = describeTiles(files, &skipped);
  EXPECT_EQ(set.tiles.size(), 48u);
  EXPECT_EQ(skipped.size(), 2u);
}

}  // namespace
}  // namespace pcv
