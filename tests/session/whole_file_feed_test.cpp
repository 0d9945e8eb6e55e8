// Files read whole fed to a scene's parts: what one takeFinished hands over (files finished,
// files added), and a bad file that counts without joining.
#include <chrono>
#include <thread>

#include "io_test_util.hpp"
#include "pcv/session/whole_file_feed.hpp"
#include "reported_errors.hpp"
#include "test_support.hpp"

namespace pcv {
namespace {

std::vector<test::SyntheticPoint> pointsAt(double x, int count) {
  std::vector<test::SyntheticPoint> points;
  for (int i = 0; i < count; ++i) points.push_back({x + 0.01 * i, 2.0, 3.0});
  return points;
}

/// Takes previews and finished files until the loader is idle; the sum of what was handed over.
TakenFiles takeUntilIdle(WholeFileFeed& feed) {
  TakenFiles total;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (std::chrono::steady_clock::now() < deadline) {
    feed.takePreview();
    const TakenFiles taken = feed.takeFinished();
    total.finished += taken.finished;
    total.added += taken.added;
    if (!feed.busy()) return total;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ADD_FAILURE() << "the files did not load within 30 s";
  return total;
}

TEST(WholeFileFeed, FinishedFilesJoinThePartsAndABadOneCostsOnlyItself) {
  test::TempDir dir;
  test::writeBytes(dir.file("a.las"), test::makeLas(pointsAt(100.0, 40)));
  test::writeText(dir.file("bad.ply"), "ply\nformat ascii 1.0\nelement vertex 1\n");
  test::writeBytes(dir.file("b.las"), test::makeLas(pointsAt(200.0, 30)));
  auto renderer = createRenderer("cpu");
  SceneParts parts(*renderer);
  test::ReportedErrors errors;
  const SessionReport report = errors.report();
  WholeFileFeed feed(parts, report);
  EXPECT_EQ(feed.loader(), nullptr) << "no loader before the first read";
  EXPECT_EQ(feed.takeFinished().finished, 0u);
  EXPECT_FALSE(feed.takePreview());

  feed.read({dir.file("a.las").string(), dir.file("bad.ply").string(), dir.file("b.las").string()},
            true, {});
  const TakenFiles taken = takeUntilIdle(feed);
  EXPECT_EQ(taken.finished, 3u);
  EXPECT_EQ(taken.added, 2u);
  EXPECT_EQ(parts.inCore.files().size(), 2u);
  EXPECT_EQ(parts.inCore.cloud().size(), 70u);
  const std::vector<std::string> said = errors.take();
  ASSERT_EQ(said.size(), 1u);
  EXPECT_NE(said[0].find("bad.ply"), std::string::npos) << said[0];
  EXPECT_TRUE(parts.preview.bounds().empty()) << "the preview ends with its file";
}

}  // namespace
}  // namespace pcv
