// The viewer's background loader: files arrive in order, one at a time, errors come back as
// values (the viewer keeps running), and destroying it mid-load returns promptly.
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <thread>

#include "io_test_util.hpp"
#include "pcv/session/cloud_loader.hpp"

namespace pcv {
namespace {

using namespace std::chrono_literals;

std::vector<LoadedFile> waitForAll(CloudLoader& loader) {
  std::vector<LoadedFile> all;
  const auto deadline = std::chrono::steady_clock::now() + 30s;
  while (loader.busy() && std::chrono::steady_clock::now() < deadline) {
    for (LoadedFile& file : loader.takeFinished()) all.push_back(std::move(file));
    std::this_thread::sleep_for(1ms);
  }
  return all;
}

TEST(CloudLoader, HandsOverEachFileInOrderAndErrorsAsValues) {
  test::TempDir dir;
  test::writeText(dir.file("a.xyz"), "500000.5 5000000.25 10\n500001 5000001 11\n");
  test::writeText(dir.file("bad.ply"), "ply\nformat ascii 1.0\nend_header\n");
  test::writeText(dir.file("b.xyz"), "1 2 3\n");
  CloudLoader loader;
  loader.load(
      {dir.file("a.xyz").string(), dir.file("bad.ply").string(), dir.file("b.xyz").string()}, true);
  const std::vector<LoadedFile> files = waitForAll(loader);
  ASSERT_EQ(files.size(), 3u);
  EXPECT_TRUE(files[0].replaces);
  EXPECT_EQ(files[0].cloud.size(), 2u);
  EXPECT_TRUE(files[0].error.empty());
  EXPECT_NE(files[1].error.find("bad.ply"), std::string::npos) << files[1].error;
  EXPECT_FALSE(files[1].cancelled);
  EXPECT_FALSE(files[2].replaces);
  EXPECT_EQ(files[2].cloud.size(), 1u);
  EXPECT_FALSE(loader.busy());
}

TEST(CloudLoader, MissingFileIsAnErrorNamingIt) {
  CloudLoader loader;
  loader.load({"/nonexistent/cloud.las"}, false);
  const std::vector<LoadedFile> files = waitForAll(loader);
  ASSERT_EQ(files.size(), 1u);
  EXPECT_NE(files[0].error.find("/nonexistent/cloud.las"), std::string::npos);
}

TEST(CloudLoader, DestroyingItDuringALoadReturns) {
  test::TempDir dir;
  std::vector<test::SyntheticPoint> points(1'000'000, test::SyntheticPoint{1.0, 2.0, 3.0});
  test::writeBytes(dir.file("big.ply"), test::makeBinaryPly(points));
  for (int round = 0; round < 3; ++round) {
    auto loader = std::make_unique<CloudLoader>();
    loader->load({dir.file("big.ply").string(), dir.file("big.ply").string()}, true);
    std::this_thread::sleep_for(1ms);
    loader.reset();  // cancels the read in progress, drops the queued one, joins
  }
  CloudLoader loader;
  loader.load({dir.file("big.ply").string()}, true);
  loader.cancel();
  for (const LoadedFile& file : waitForAll(loader)) {
    // Either cancelled in time or already done; never an error.
    EXPECT_TRUE(file.cancelled || file.error.empty()) << file.error;
  }
}

/// What the UI thread saw of one load: the previews appended in order, and the finished file.
struct WatchedLoad {
  std::vector<Point> previewPoints;
  uint64_t previewUpdates = 0;
  bool previewsContiguous = true;
  std::vector<LoadedFile> finished;
};

WatchedLoad watchLoad(CloudLoader& loader, const std::string& path) {
  WatchedLoad watched;
  loader.load({path}, true);
  const auto deadline = std::chrono::steady_clock::now() + 30s;
  while (loader.busy() && std::chrono::steady_clock::now() < deadline) {
    // As the viewer does: finished files first (they drop their own previews), then the preview.
    for (LoadedFile& file : loader.takeFinished()) watched.finished.push_back(std::move(file));
    if (std::optional<LoadPreview> preview = loader.takePreview()) {
      watched.previewsContiguous &= preview->firstPoint == watched.previewPoints.size();
      watched.previewsContiguous &= preview->replaces && preview->path == path;
      watched.previewPoints.insert(watched.previewPoints.end(), preview->points.begin(),
                                   preview->points.end());
      ++watched.previewUpdates;
    }
    std::this_thread::sleep_for(100us);
  }
  return watched;
}

TEST(CloudLoader, PreviewsRebuildThePrefixOfTheFileBeingRead) {
  test::TempDir dir;
  std::vector<test::SyntheticPoint> points(1'200'000);
  for (size_t i = 0; i < points.size(); ++i) {
    points[i] = {double(i % 1000), double(i / 1000), double(i % 7), uint16_t(i), uint16_t(i >> 8)};
  }
  test::writeBytes(dir.file("big.ply"), test::makeBinaryPly(points));
  CloudLoader loader(0ms);  // forward every decoded slice
  // A preview is forwarded after each slice; seeing one needs the poll to run between two, which
  // a loaded machine can miss once, so a few attempts are allowed.
  WatchedLoad watched;
  for (int attempt = 0; attempt < 5 && watched.previewUpdates == 0; ++attempt) {
    watched = watchLoad(loader, dir.file("big.ply").string());
  }
  ASSERT_EQ(watched.finished.size(), 1u);
  const PointCloud& cloud = watched.finished[0].cloud;
  ASSERT_EQ(cloud.size(), points.size());
  ASSERT_GT(watched.previewUpdates, 0u);
  EXPECT_TRUE(watched.previewsContiguous);
  ASSERT_LE(watched.previewPoints.size(), cloud.size());
  EXPECT_EQ(std::memcmp(watched.previewPoints.data(), cloud.points.data(),
                        watched.previewPoints.size() * sizeof(Point)),
            0);
  EXPECT_FALSE(loader.takePreview()) << "a finished file leaves no preview behind";
}

TEST(CloudLoader, SmallFilesFinishBeforeAnyPreview) {
  test::TempDir dir;
  test::writeText(dir.file("a.xyz"), "1 2 3\n4 5 6\n");
  CloudLoader loader;  // the viewer's 250 ms interval
  const WatchedLoad watched = watchLoad(loader, dir.file("a.xyz").string());
  ASSERT_EQ(watched.finished.size(), 1u);
  EXPECT_EQ(watched.previewUpdates, 0u);
}

}  // namespace
}  // namespace pcv
