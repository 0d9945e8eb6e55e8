// The HTTP requests a remote COPC tile costs from the view's first wish for it to its root
// decoded, and the round trips among them (requests that must wait for an earlier answer),
// counted on a loopback server (tests/support/http_test_server): the header, VLRs and the file's
// end (chunk table, hierarchy) come in one round trip, the root chunk with the pages below the
// root page, and every request goes on a connection kept open.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <thread>

#include "http_test_server.hpp"
#include "pcv/io/copc_file.hpp"
#include "pcv/io/copc_writer.hpp"
#include "pcv/io/remote_source.hpp"
#include "pcv/io/virtual_point_cloud.hpp"
#include "pcv/stream/forest_node_source.hpp"
#include "pcv/stream/tile_forest.hpp"
#include "pcv/stream/tile_set.hpp"
#include "synthetic_tiles.hpp"
#include "temp_dir.hpp"
#include "test_support.hpp"
#include "quick_remote_options.hpp"

namespace pcv {
namespace {

using Request = test::HttpTestServer::Request;

/// Added to every answer: requests sent together then overlap at the server, however busy the
/// machine, so those that did not wait for each other count as one round trip.
constexpr int kDelayMs = 150;

/// The round trips of `requests` (in the order they came): a request is one round trip after
/// the latest of those answered before it came; those that overlap are one.
int roundTrips(const std::vector<Request>& requests) {
  std::vector<int> round(requests.size(), 1);
  for (size_t i = 0; i < requests.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (requests[j].answerOrder < requests[i].answeredBefore) {
        round[i] = std::max(round[i], round[j] + 1);
      }
    }
  }
  return requests.empty() ? 0 : *std::max_element(round.begin(), round.end());
}

/// A COPC file through pcv's writer (which writes the root last, right before the chunk table
/// and the hierarchy) of an n x n grid tile whose heights vary at random and, when `noisy`, its
/// intensities and colours too: a few bytes a point, as survey points compress, or ten.
std::filesystem::path writeCopc(const std::filesystem::path& path, int n, bool noisy) {
  std::vector<test::SyntheticPoint> points = test::gridTile(0, 0, n);
  uint64_t state = 0x9e3779b97f4a7c15ull;
  const auto next = [&state] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return uint16_t(state >> 48);
  };
  for (test::SyntheticPoint& point : points) {
    point.z += double(next()) / 65535.0;
    if (!noisy) continue;
    point.intensity = next();
    point.red = next();
    point.green = next();
    point.blue = next();
  }
  const std::filesystem::path las = std::filesystem::path(path).replace_extension(".source.las");
  test::writeBytes(las, test::lasWithBounds(points));
  writeCopcFile([las] { return openLasRecords(las); }, path, {});
  std::filesystem::remove(las);
  return path;
}

class RemoteTileRequests : public ::testing::Test {
 protected:
  /// Serves `tiles` in a VPC of their own (its items describe them: each is read only when
  /// wanted) and returns each tile's requests from the view's first wish for it to its root
  /// decoded, the tiles wanted one after the other.
  std::vector<std::vector<Request>> requestsForRoots(
      const std::vector<std::filesystem::path>& tiles) {
    const std::string set = "set" + std::to_string(++sets_);
    const std::filesystem::path folder = dir_.file(set);
    std::filesystem::create_directories(folder);
    std::vector<std::filesystem::path> copies;
    for (const std::filesystem::path& tile : tiles) {
      copies.push_back(folder / tile.filename());
      std::filesystem::copy_file(tile, copies.back());
      server_.putFile(set + "/" + tile.filename().string(), copies.back().string());
    }
    const std::filesystem::path vpc = folder / "set.vpc";
    buildVirtualPointCloud(vpc, copies);
    server_.putFile(set + "/set.vpc", vpc.string());
    TileIndex index;
    const std::vector<std::string> files =
        expandTilePaths({server_.url(set + "/set.vpc")}, nullptr, &index);
    const TileSet described = describeTiles(files, nullptr, &index);
    const std::shared_ptr<const ForestNodeSource> forest = openTileForest(described);
    std::vector<std::vector<Request>> perTile;
    server_.faults().delayMs = kDelayMs;
    for (size_t tile = 0; tile < tiles.size(); ++tile) {
      EXPECT_TRUE(described.tiles[tile].fromIndex) << tile;
      const size_t member = firstTileMember(*forest, described) + tile;
      const size_t root = forest->firstNode(member);
      const size_t before = server_.requestLog().size();
      forest->prefetchNodes({root});  // what the stream asks of a tile it wants: read it ahead
      for (int wait = 0; wait < 4000 && forest->readsOnDemand(root); ++wait) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
      }
      EXPECT_FALSE(forest->readsOnDemand(root)) << "read " << tiles[tile];
      EXPECT_GT(forest->decodeNode(root).size(), 0u) << tiles[tile];
      std::vector<Request> log = server_.requestLog();
      log.erase(log.begin(), log.begin() + std::ptrdiff_t(before));
      perTile.push_back(std::move(log));
    }
    server_.faults().delayMs = 0;
    return perTile;
  }

  std::vector<Request> requestsForRoot(const std::filesystem::path& tile) {
    return requestsForRoots({tile}).front();
  }

  test::TempDir dir_;
  test::HttpTestServer server_;
  test::QuickRemoteOptions quickOptions_;
  int sets_ = 0;
};

/// What the requests were, for a failure's message.
std::string listed(const std::vector<Request>& requests) {
  std::string text;
  for (const Request& request : requests) {
    text += "\n  " + request.name + " " + request.range + " (connection " +
            std::to_string(request.connection) + ")";
  }
  return text;
}

TEST_F(RemoteTileRequests, ASmallTileIsOneRequest) {
  // Its index says the first block holds it all: nothing else is asked.
  const auto tile = writeCopc(dir_.file("small.copc.laz"), 40, true);
  ASSERT_LT(std::filesystem::file_size(tile), 65536u);
  const auto log = requestsForRoot(tile);
  EXPECT_EQ(log.size(), 1u) << listed(log);
}

TEST_F(RemoteTileRequests, ATileWhoseEndHoldsItsRootIsOneRoundTrip) {
  // 160 000 points, a root chunk of about 60 KB: the root, the chunk table and the hierarchy
  // are in the file's end, asked for with its first block.
  const auto tile = writeCopc(dir_.file("end.copc.laz"), 400, false);
  ASSERT_GT(std::filesystem::file_size(tile), 3 * 65536u);
  const auto log = requestsForRoot(tile);
  EXPECT_EQ(roundTrips(log), 1) << listed(log);
  EXPECT_EQ(log.size(), 2u) << listed(log);
}

TEST_F(RemoteTileRequests, ATileWhoseRootIsLargerThanTheEndAskedIsTwoRoundTrips) {
  // A root chunk of about 230 KB: the rest of it is asked once the hierarchy says where it is.
  const auto tile = writeCopc(dir_.file("root.copc.laz"), 200, true);
  ASSERT_GT(std::filesystem::file_size(tile), 3 * 65536u);
  const auto log = requestsForRoot(tile);
  EXPECT_EQ(roundTrips(log), 2) << listed(log);
  EXPECT_LE(log.size(), 3u) << listed(log);
}

TEST_F(RemoteTileRequests, ATileOfAnotherWriterIsTwoRoundTrips) {
  // Written by another writer: the root chunk in the middle of the file, the hierarchy and the
  // chunk table at its end.
  const std::filesystem::path path = test::testDataDir() / "laz-corpus" / "lone-star.copc.laz";
  if (test::testDataDir().empty() || !std::filesystem::exists(path)) GTEST_SKIP() << path;
  const auto log = requestsForRoot(path);
  EXPECT_EQ(roundTrips(log), 2) << listed(log);
  EXPECT_LE(log.size(), 3u) << listed(log);
}

TEST_F(RemoteTileRequests, TilesShareConnectionsKeptOpen) {
  std::vector<std::filesystem::path> tiles;
  for (int i = 0; i < 6; ++i) {
    tiles.push_back(writeCopc(dir_.file("t" + std::to_string(i) + ".copc.laz"), 20, true));
  }
  const uint64_t before = server_.connectionsAccepted();
  uint64_t requests = 0;
  for (const auto& log : requestsForRoots(tiles)) requests += log.size();
  EXPECT_GE(requests, 6u);
  EXPECT_LE(server_.connectionsAccepted() - before, 2u) << "a connection a request";
}

TEST_F(RemoteTileRequests, ASingleCopcFileIsTwoRoundTripsToItsRoot) {
  // As a scene opens a COPC URL: the format sniffed, the file opened, its root decoded.
  const auto tile = writeCopc(dir_.file("one.copc.laz"), 200, true);
  ASSERT_GT(std::filesystem::file_size(tile), 2 * 65536u);
  server_.putFile("one.copc.laz", tile.string());
  server_.faults().delayMs = kDelayMs;
  const std::string url = server_.url("one.copc.laz");
  ASSERT_TRUE(isCopcFile(url));
  const CopcFile file(url);
  ASSERT_FALSE(file.hierarchy().nodes.empty());
  EXPECT_GT(file.decodeNode(0).size(), 0u);
  const std::vector<Request> log = server_.requestLog();
  EXPECT_EQ(roundTrips(log), 2) << listed(log);
  EXPECT_LE(log.size(), 3u) << listed(log);
}

}  // namespace
}  // namespace pcv
