// The viewer's background loader: files arrive in order, one at a time, errors come back as
// values (the viewer keeps running), and destroying it mid-load returns promptly.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "io_test_util.hpp"
#include "viewer/cloud_loader.hpp"

namespace pcv::app {
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

}  // namespace
}  // namespace pcv::app
