// Scenes opened from URLs served on loopback (tests/support/http_test_server): a COPC file, a
// plain LAZ file and a VPC of tiles render the same pixels as the same files on disk (CPU
// backend); faults during the stream are retried and change no pixel, on COPC files and on the
// LAS and LAZ tiles a VPC's index defers; a missing or trickling tile fails its nodes within the
// request deadline; a file replaced while it streams fails its nodes, never draws other points.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "http_test_server.hpp"
#include "pcv/core/error.hpp"
#include "pcv/io/copc_file.hpp"
#include "pcv/io/remote_source.hpp"
#include "pcv/io/virtual_point_cloud.hpp"
#include "pcv/session/render_converged.hpp"
#include "pcv/session/scene.hpp"
#include "pcv/session/scene_camera.hpp"
#include "session_test_files.hpp"
#include "synthetic_tiles.hpp"
#include "test_support.hpp"
#include "quick_remote_options.hpp"
#include "reported_errors.hpp"

namespace pcv {
namespace {

constexpr int kWidth = 160, kHeight = 90;

/// The camera a scene opens with, framed on it.
Camera framing(const Scene& scene) {
  return startCamera(scene.kind(), scene.worldBounds(), float(kWidth) / float(kHeight), {});
}

/// The image of `scene` from `camera` once converged (or after 60 s), and whether it did.
struct ConvergedImage {
  Image image;
  bool converged = false;
};
ConvergedImage converge(Scene& scene, const Camera& camera) {
  Image image(kWidth, kHeight, test::kPoisonPixel);
  const ConvergedRender done = renderConverged(
      scene, camera, {}, {image.pixels.data(), kWidth, kHeight, MemorySpace::Host}, 60.0);
  return {std::move(image), done.converged};
}

/// The converged image of `files` on the CPU backend, framed on the scene.
Image renderFiles(const std::vector<std::string>& files) {
  const SceneSources sources{.files = files};
  const ScenePlan plan = planScene(sources, {});
  auto renderer = createRenderer("cpu", plan.rendererOptions());
  Scene scene(plan, {}, *renderer);
  ConvergedImage done = converge(scene, framing(scene));
  EXPECT_TRUE(done.converged);
  return std::move(done.image);
}

class RemoteScene : public ::testing::Test {
 protected:
  /// A VPC of `tiles` (as `pcv vpc` writes it, beside them) served with them under `folder`/;
  /// returns the VPC's local path.
  std::filesystem::path serveVpc(const std::vector<std::filesystem::path>& tiles,
                                 const std::string& folder) {
    const std::filesystem::path vpc = tiles.front().parent_path() / "set.vpc";
    buildVirtualPointCloud(vpc, tiles);
    for (const auto& tile : tiles) {
      server_.putFile(folder + "/" + tile.filename().string(), tile.string());
    }
    server_.putFile(folder + "/set.vpc", vpc.string());
    return vpc;
  }

  /// The converged image of `url` while the server answers `failures` requests with 503 and
  /// drops and truncates two each, retried up to ten times; `retried` gets the retries made.
  Image renderThroughFaults(const std::string& url, int failures, uint64_t& retried) {
    RemoteOptions patient = remoteOptions();
    patient.retries = 10;  // the faults may all meet one request
    setRemoteOptions(patient);
    forgetRemoteSources();  // nothing read before is reused
    const uint64_t before = remoteCounters().retries;
    server_.faults().failNext = failures;
    server_.faults().dropNext = 2;
    server_.faults().truncateNext = 2;
    Image image = renderFiles({url});
    retried = remoteCounters().retries - before;
    return image;
  }

  test::TempDir dir_;
  test::HttpTestServer server_;
  test::QuickRemoteOptions quickOptions_;
};

TEST_F(RemoteScene, ACopcUrlRendersTheSamePixelsAsTheFile) {
  const std::string local = test::writeCopcTile(dir_.file("a.copc.laz"), 0, 0, 200).string();
  server_.putFile("data/a.copc.laz", local);
  const Image fromDisk = renderFiles({local});
  const Image fromUrl = renderFiles({server_.url("data/a.copc.laz")});
  EXPECT_GT(test::countLitPixels(fromDisk, RenderSettings{}.background), uint64_t(kWidth));
  EXPECT_EQ(test::countDifferentPixels(fromDisk, fromUrl), 0u);
}

TEST_F(RemoteScene, APlainLazUrlIsReadWholeAndRendersAsTheFile) {
  const std::string local = test::writeLazTile(dir_.file("b.laz"), 0, 0, 100, 1000).string();
  server_.putFile("b.laz", local);
  EXPECT_EQ(test::countDifferentPixels(renderFiles({local}), renderFiles({server_.url("b.laz")})),
            0u);
}

TEST_F(RemoteScene, ARemoteVpcRendersAsTheLocalVpc) {
  const std::filesystem::path folder = dir_.file("tiles");
  std::filesystem::create_directories(folder);
  const std::vector<std::filesystem::path> tiles = {
      test::writeCopcTile(folder / "a.copc.laz", 0, 0, 60),
      test::writeLasTile(folder / "b.las", 1, 0, 50),
      test::writeLazTile(folder / "c.laz", 0, 1, 40, 500),
      test::writeCopcTile(folder / "d.copc.laz", 1, 1, 30)};
  const std::filesystem::path vpc = serveVpc(tiles, "survey");
  const Image local = renderFiles({vpc.string()});
  const Image remote = renderFiles({server_.url("survey/set.vpc")});
  EXPECT_GT(test::countLitPixels(local, RenderSettings{}.background), uint64_t(kWidth));
  EXPECT_EQ(test::countDifferentPixels(local, remote), 0u);
}

TEST_F(RemoteScene, ARemoteVpcOpensFromItsIndexAndReadsTilesOnlyOnceTheyAreWanted) {
  const std::filesystem::path folder = dir_.file("index");
  std::filesystem::create_directories(folder);
  std::vector<std::filesystem::path> tiles;
  for (int i = 0; i < 24; ++i) {
    tiles.push_back(
        test::writeCopcTile(folder / ("t" + std::to_string(i) + ".copc.laz"), i % 6, i / 6, 20));
  }
  const std::filesystem::path vpc = serveVpc(tiles, "survey");
  const SceneSources sources{.files = {server_.url("survey/set.vpc")}};
  const ScenePlan plan = planScene(sources, {});
  auto renderer = createRenderer("cpu", plan.rendererOptions());
  Scene scene(plan, {}, *renderer);
  // Opened, and ready for its first frame, from the VPC alone.
  EXPECT_EQ(server_.requests(), 1u);
  for (const auto& tile : tiles) {
    EXPECT_EQ(server_.requestsFor("survey/" + tile.filename().string()), 0u) << tile;
  }
  const ConvergedImage done = converge(scene, framing(scene));
  ASSERT_TRUE(done.converged);
  EXPECT_EQ(scene.streamed()->stats().pointsDrawn, 24u * 20 * 20) << "every point";
  EXPECT_EQ(test::countDifferentPixels(done.image, renderFiles({vpc.string()})), 0u)
      << "as the local VPC";
}

TEST_F(RemoteScene, ARemoteVpcOfLasAndLazTilesOpensFromItsIndexToo) {
  // LAS and LAZ tiles, and a COPC tile under a plain ".laz" name (the header decides).
  const std::filesystem::path folder = dir_.file("plain");
  std::filesystem::create_directories(folder);
  const std::vector<std::filesystem::path> tiles = {
      test::writeLasTile(folder / "a.las", 0, 0, 30), test::writeLazTile(folder / "b.laz", 1, 0, 30, 400),
      test::writeCopcTile(folder / "c.laz", 0, 1, 30), test::writeLasTile(folder / "d.las", 1, 1, 30)};
  const std::filesystem::path vpc = serveVpc(tiles, "survey");
  const SceneSources sources{.files = {server_.url("survey/set.vpc")}};
  const ScenePlan plan = planScene(sources, {});
  auto renderer = createRenderer("cpu", plan.rendererOptions());
  Scene scene(plan, {}, *renderer);
  EXPECT_EQ(server_.requests(), 1u) << "opened from the VPC alone";
  const ConvergedImage done = converge(scene, framing(scene));
  ASSERT_TRUE(done.converged);
  EXPECT_EQ(scene.streamed()->stats().pointsDrawn, 4u * 30 * 30) << "every point";
  // As the local VPC, whose LAS and LAZ tiles are read through their headers first, but for
  // points a pixel apart: there the tiles' samples (the first image, kept drawn) are one cloud
  // of offsets from the first sample's origin, so a few of this grid's points, which lie on
  // pixel edges, round to the other side (each makes two pixels differ). The points drawn are
  // the same.
  const Image local = renderFiles({vpc.string()});
  const uint64_t lit = test::countLitPixels(local, RenderSettings{}.background);
  EXPECT_GT(lit, uint64_t(kWidth));
  EXPECT_LT(test::countDifferentPixels(done.image, local), lit / 10);
}

/// LAS and LAZ tiles (a COPC one under a ".laz" name) served with their VPC under `folder`/.
std::vector<std::filesystem::path> plainTiles(const std::filesystem::path& folder) {
  std::filesystem::create_directories(folder);
  return {test::writeLasTile(folder / "a.las", 0, 0, 30),
          test::writeLazTile(folder / "b.laz", 1, 0, 30, 400),
          test::writeCopcTile(folder / "c.laz", 0, 1, 30),
          test::writeLasTile(folder / "d.las", 1, 1, 30)};
}

TEST_F(RemoteScene, FaultsOnLasAndLazTilesReadFromTheIndexAreRetriedAndChangeNoPixel) {
  serveVpc(plainTiles(dir_.file("faults")), "f");
  const Image clean = renderFiles({server_.url("f/set.vpc")});
  EXPECT_GT(test::countLitPixels(clean, RenderSettings{}.background), uint64_t(kWidth));
  // The VPC is read first and may meet some faults; the others meet the tiles' reads,
  // deferred by the index.
  uint64_t retried = 0;
  const Image faulty = renderThroughFaults(server_.url("f/set.vpc"), 2, retried);
  EXPECT_EQ(test::countDifferentPixels(clean, faulty), 0u);
  EXPECT_GT(retried, 0u) << "faults were met and retried";
}

TEST_F(RemoteScene, ALasTileMissingFromTheServerFailsItsNodeNeverDrawsOtherPoints) {
  const std::vector<std::filesystem::path> tiles = plainTiles(dir_.file("missing"));
  const std::filesystem::path vpc = tiles.front().parent_path() / "set.vpc";
  buildVirtualPointCloud(vpc, tiles);
  server_.putFile("m/set.vpc", vpc.string());
  for (size_t i = 1; i < tiles.size(); ++i) {  // a.las is not on the server
    server_.putFile("m/" + tiles[i].filename().string(), tiles[i].string());
  }
  const ScenePlan plan = planScene({.files = {server_.url("m/set.vpc")}}, {});
  auto renderer = createRenderer("cpu", plan.rendererOptions());
  test::ReportedErrors errors;
  Scene scene(plan, {.report = errors.report()}, *renderer);
  ASSERT_TRUE(converge(scene, framing(scene)).converged) << "a failed tile is done too";
  EXPECT_FALSE(errors.take().empty()) << "the missing tile is said";
  EXPECT_EQ(scene.streamed()->stats().pointsDrawn, 3u * 30 * 30) << "the other tiles' points";
}

TEST_F(RemoteScene, ATricklingServerEndsALasTileReadWithinTheRequestDeadline) {
  serveVpc(plainTiles(dir_.file("slow")), "s");
  RemoteOptions quick = remoteOptions();
  quick.retries = 0;
  quick.requestTimeoutSeconds = 1.0;
  setRemoteOptions(quick);
  forgetRemoteSources();
  const ScenePlan plan = planScene({.files = {server_.url("s/set.vpc")}}, {});
  auto renderer = createRenderer("cpu", plan.rendererOptions());
  test::ReportedErrors errors;
  Scene scene(plan, {.report = errors.report()}, *renderer);
  server_.faults().trickleBytesPerSecond =
      2048;  // above libcurl's floor: only the deadline ends it
  const auto start = std::chrono::steady_clock::now();
  const ConvergedImage done = converge(scene, framing(scene));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  server_.faults().trickleBytesPerSecond = 0;
  EXPECT_TRUE(done.converged) << "every tile read or failed";
  EXPECT_LT(seconds, 1.0 * 4 + 6.0) << "the tiles' reads end at their deadlines";
  EXPECT_FALSE(errors.take().empty()) << "the tiles that could not be read are said";
}

TEST_F(RemoteScene, UnreadTilesShowAsTheirDensityUntilTheirPointsReplaceIt) {
  const std::filesystem::path folder = dir_.file("density");
  std::filesystem::create_directories(folder);
  std::vector<std::filesystem::path> tiles;
  for (int i = 0; i < 8; ++i) {
    tiles.push_back(
        test::writeCopcTile(folder / ("t" + std::to_string(i) + ".copc.laz"), i % 4, i / 4, 20));
  }
  serveVpc(tiles, "d");
  const ScenePlan plan = planScene({.files = {server_.url("d/set.vpc")}}, {});
  auto renderer = createRenderer("cpu", plan.rendererOptions());
  Scene scene(plan, {}, *renderer);
  const Camera camera = framing(scene);
  // No tile can be read within 1 s: what is drawn meanwhile stands in for them.
  server_.faults().delayMs = 1000;
  const auto start = std::chrono::steady_clock::now();
  uint64_t standIn = 0;
  while (standIn == 0 &&
         std::chrono::steady_clock::now() - start < std::chrono::milliseconds(500)) {
    scene.update(camera, kWidth, kHeight);
    standIn = scene.streamed()->stats().pointsDrawn;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_GT(standIn, 0u) << "each unread tile's density";
  EXPECT_FALSE(scene.converged()) << "stand-ins are not the tiles";
  server_.faults().delayMs = 0;
  ASSERT_TRUE(converge(scene, camera).converged);
  EXPECT_EQ(scene.streamed()->stats().pointsDrawn, 8u * 20 * 20) << "the tiles' own points only";
}

TEST_F(RemoteScene, AVpcSceneClosedWhileItsTilesAreReadAheadEndsAtOnce) {
  const std::filesystem::path folder = dir_.file("ahead");
  std::filesystem::create_directories(folder);
  std::vector<std::filesystem::path> tiles;
  for (int i = 0; i < 40; ++i) {
    tiles.push_back(
        test::writeCopcTile(folder / ("t" + std::to_string(i) + ".copc.laz"), i % 8, i / 8, 10));
  }
  serveVpc(tiles, "a");
  const ScenePlan plan = planScene({.files = {server_.url("a/set.vpc")}}, {});
  const auto start = std::chrono::steady_clock::now();
  {
    auto renderer = createRenderer("cpu", plan.rendererOptions());
    Scene scene(plan, {}, *renderer);
    server_.faults().delayMs = 200;  // every tile's read still under way when the scene goes
    const Camera camera = framing(scene);
    for (int frame = 0; frame < 3; ++frame) scene.update(camera, kWidth, kHeight);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  // The reads in flight finish (one round trip each), the queued ones are dropped.
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 5.0);
  EXPECT_LT(server_.requests(), 1u + 40u) << "not every queued tile was read";
  server_.faults().delayMs = 0;
}

TEST_F(RemoteScene, FaultsWhileStreamingAreRetriedAndChangeNoPixel) {
  const std::string local = test::writeCopcTile(dir_.file("a.copc.laz"), 0, 0, 200).string();
  server_.putFile("a.copc.laz", local);
  const Image fromDisk = renderFiles({local});
  uint64_t retried = 0;
  const Image fromUrl = renderThroughFaults(server_.url("a.copc.laz"), 3, retried);
  EXPECT_EQ(test::countDifferentPixels(fromDisk, fromUrl), 0u);
  EXPECT_GE(retried, 7u) << "every fault was met and retried";
}

TEST_F(RemoteScene, AFileReplacedWhileStreamingFailsItsNodesNeverDrawsOthers) {
  const std::string local = test::writeCopcTile(dir_.file("a.copc.laz"), 0, 0, 300).string();
  const std::string other = test::writeCopcTile(dir_.file("b.copc.laz"), 3, 3, 300).string();
  server_.putFile("a.copc.laz", local);
  // A memory cache of one block: the small file is not all cached when it changes.
  RemoteOptions small = remoteOptions();
  small.memoryCacheBytes = 64 << 10;
  setRemoteOptions(small);
  const CopcFile reference(local);
  const CopcFile remote(server_.url("a.copc.laz"));
  ASSERT_EQ(remote.hierarchy().nodes.size(), reference.hierarchy().nodes.size());
  server_.putFile("a.copc.laz", other);
  size_t failed = 0;
  for (size_t node = 0; node < reference.hierarchy().nodes.size(); ++node) {
    try {
      const PointCloud points = remote.decodeNode(node);
      const PointCloud expected = reference.decodeNode(node);
      ASSERT_EQ(points.size(), expected.size());
      for (size_t i = 0; i < points.size(); ++i) {
        ASSERT_EQ(points.points[i].x, expected.points[i].x) << "node " << node << " point " << i;
        ASSERT_EQ(points.points[i].rgba, expected.points[i].rgba);
      }
    } catch (const RemoteError& error) {
      EXPECT_EQ(error.failure(), RemoteFailure::Changed);
      ++failed;
    }
  }
  EXPECT_GT(failed, 0u) << "nodes not cached before the change must fail";
}

}  // namespace
}  // namespace pcv
