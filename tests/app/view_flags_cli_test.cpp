// The view flags `pcv render` shares with `pcv view`, end to end: an explicit eye keeps near and
// far from the cloud's size, --up y stands Y-up models upright, --clip-box draws exactly the
// points in the box (and a bad box is an error naming it).
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "pcv/io/png_writer.hpp"
#include "test_support.hpp"

namespace pcv {
namespace {

class ViewFlagsCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("pcv_view_flags_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override {
    if (!HasFailure()) std::filesystem::remove_all(dir_);
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  /// Renders with the cpu backend; returns the image, or an empty one when pcv failed.
  Image render(const std::string& arguments, std::string* text = nullptr) {
    std::string output;
    const std::string png = path("out.png");
    std::filesystem::remove(png);
    const int status = test::runCommand(
        test::pcvExecutable().string() + " render --backend cpu --out " + png + " " + arguments,
        &output);
    if (text) *text = output;
    if (status != 0) return Image(0, 0);
    return readPng(png);
  }
  std::filesystem::path dir_;
};

/// Bounding box of the lit pixels: width and height.
std::pair<int, int> litExtent(const Image& image) {
  int x0 = image.width, x1 = -1, y0 = image.height, y1 = -1;
  for (int y = 0; y < image.height; ++y) {
    for (int x = 0; x < image.width; ++x) {
      if (image.at(x, y) == kOpaqueBlack) continue;
      x0 = std::min(x0, x), x1 = std::max(x1, x), y0 = std::min(y0, y), y1 = std::max(y1, y);
    }
  }
  return {x1 - x0 + 1, y1 - y0 + 1};
}

TEST_F(ViewFlagsCli, ExplicitEyeKeepsNearAndFarFromTheCloud) {
  // A 20 x 20 m patch at UTM-like coordinates, seen from 1 km south of it.
  std::ofstream cloud(path("far.xyz"));
  for (int i = 0; i < 20; ++i) {
    for (int j = 0; j < 20; ++j) cloud << 500000 + i << " " << 5000000 + j << " 100 200 200 200\n";
  }
  cloud.close();
  const std::string eye = " --eye 500010,4999000,100 --yaw 90 --pitch 0 --size 160x120 ";
  const Image seen = render(path("far.xyz") + eye);
  ASSERT_GT(seen.width, 0);
  EXPECT_GT(test::countLitPixels(seen, kOpaqueBlack), 0u);
  // Planes given by hand are kept, even when they hide the cloud.
  const Image hidden = render(path("far.xyz") + eye + "--near 1 --far 500");
  ASSERT_GT(hidden.width, 0);
  EXPECT_EQ(test::countLitPixels(hidden, kOpaqueBlack), 0u);
}

TEST_F(ViewFlagsCli, UpYStandsAYUpColumnUpright) {
  std::ofstream column(path("column.xyz"));
  for (int i = 0; i <= 400; ++i) {
    column << (i % 3) * 0.05 << " " << i * 0.025 << " " << (i % 5) * 0.05 << " 255 255 255\n";
  }
  column.close();
  const auto [yWidth, yHeight] = litExtent(render(path("column.xyz") + " --up y --size 400x400"));
  EXPECT_GT(yHeight, 3 * yWidth) << yWidth << " x " << yHeight;
  const auto [zWidth, zHeight] = litExtent(render(path("column.xyz") + " --size 400x400"));
  EXPECT_LT(zHeight, zWidth) << zWidth << " x " << zHeight;
}

TEST_F(ViewFlagsCli, ClipBoxDrawsExactlyThePointsInside) {
  // 64 x 64 points in the plane x = 0 seen face on: every point has a pixel of its own.
  std::ofstream grid(path("grid.xyz"));
  for (int i = 0; i < 64; ++i) {
    for (int j = 0; j < 64; ++j)
      grid << "0 " << (i - 31.5) / 40 << " " << (j - 31.5) / 40 << " 200 100 50\n";
  }
  grid.close();
  const std::string view = path("grid.xyz") + " --eye -3,0,0 --size 640x640 ";
  EXPECT_EQ(test::countLitPixels(render(view), kOpaqueBlack), 64u * 64u);
  const Image inside = render(view + "--clip-box -1,-0.2,-0.2,1,0.3,0.3");
  EXPECT_EQ(test::countLitPixels(inside, kOpaqueBlack), 20u * 20u);
  const Image outside = render(view + "--clip-box -1,-0.2,-0.2,1,0.3,0.3 --clip-keep outside");
  EXPECT_EQ(test::countLitPixels(outside, kOpaqueBlack), 64u * 64u - 20u * 20u);
  std::string text;
  EXPECT_EQ(render(view + "--clip-box 1,2,3", &text).width, 0);
  EXPECT_NE(text.find("bad --clip-box '1,2,3'"), std::string::npos) << text;
  EXPECT_EQ(render(view + "--clip-box 0,0,0,1,-1,1", &text).width, 0);
  EXPECT_NE(text.find("y0 = 0 > y1 = -1"), std::string::npos) << text;
}

TEST_F(ViewFlagsCli, HelpListsTheCommandsAndTheViewersMainFlags) {
  std::string text;
  ASSERT_EQ(test::runCommand(test::pcvExecutable().string() + " --help", &text), 0) << text;
  if (text.find("Open the interactive viewer") == std::string::npos) {
    GTEST_SKIP() << "pcv was built without the viewer";
  }
  for (const char* part :
       {"render ", "bench ", "view ", "info ", "compare ", "pcv view --help lists them all",
        "--backend auto|cuda|cpu", "--clip-box", "--up z|y", "M measure", "C copy view"}) {
    EXPECT_NE(text.find(part), std::string::npos) << part << " in\n" << text;
  }
}

}  // namespace
}  // namespace pcv
