// The profile tool, the orthographic views and the scale bar under Xvfb: a profile cut along a
// line exports the same points as `pcv profile`; clicks on the cloud in a plan view pick the
// points under them; the plan view draws a scale bar; `pcv view --ortho` starts in the image of
// `pcv render --ortho`, and Home frames it again.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>

#include "pcv/io/png_writer.hpp"
#include "xvfb_viewer_fixture.hpp"

namespace pcv {
namespace {

class ProfileToolsXvfb : public test::ViewerXvfb {
 protected:
  /// 41 x 41 points on a 0.5 grid in the plane z = x / 10, coloured.
  std::string writeTerrain() {
    std::ofstream terrain(path("terrain.xyz"));
    for (int i = 0; i <= 40; ++i) {
      for (int j = 0; j <= 40; ++j) {
        terrain << i * 0.5 << " " << j * 0.5 << " " << i * 0.05 << " 200 120 40\n";
      }
    }
    return path("terrain.xyz");
  }
  static uint64_t countRows(const std::string& csv) {
    std::ifstream in(csv);
    uint64_t rows = 0;
    for (std::string line; std::getline(in, line);) ++rows;
    return rows;
  }
};

TEST_F(ProfileToolsXvfb, ACutProfileExportsTheSameRowsAsTheCommandLine) {
  const std::string terrain = writeTerrain();
  std::string output;
  ASSERT_EQ(runViewer("0.02 wait_load\n0.1 profile on\n0.12 profile_width 1\n"
                      "0.14 profile_line 2,10.1,18,10.1\n0.2 profile_cut\n0.3 export_profile " +
                          path("viewer.csv") + "\n0.32 export_profile " + path("viewer.png") +
                          "\n0.35 screenshot " + path("window.png") + "\n0.4 quit\n",
                      &output, terrain),
            0)
      << output;
  std::string cli;
  ASSERT_EQ(test::runCommand(test::pcvExecutable().string() + " profile " + terrain +
                                 " --line 2,10.1,18,10.1 --width 1 --out " + path("cli.csv"),
                             &cli),
            0)
      << cli;
  // The line at y = 10.1, 1 wide: the rows y = 10 and 10.5, x from 2 to 18: 2 x 33 points.
  EXPECT_EQ(countRows(path("viewer.csv")), 1u + 66u) << output;
  EXPECT_EQ(countRows(path("cli.csv")), 1u + 66u) << cli;
  const Image profile = readPng(path("viewer.png"));
  EXPECT_EQ(profile.width, 800);
  EXPECT_GT(test::countLitPixels(profile, kOpaqueBlack), 30u);
  // The window shows, and exports, the figure the command line draws: axes, title, points
  // sized from the corridor's density.
  ASSERT_EQ(test::runCommand(test::pcvExecutable().string() + " profile " + terrain +
                                 " --line 2,10.1,18,10.1 --width 1 --size 800x300 --out " +
                                 path("cli.png"),
                             &cli),
            0)
      << cli;
  const Image figure = readPng(path("cli.png"));
  ASSERT_EQ(figure.width, profile.width);
  ASSERT_EQ(figure.height, profile.height);
  EXPECT_TRUE(figure.pixels == profile.pixels) << "the viewer's profile differs from the figure";
}

TEST_F(ProfileToolsXvfb, PlanViewPicksThePointUnderTheClickAndShowsAScaleBar) {
  const std::string terrain = writeTerrain();
  // The plan view is fitted to the terrain (centre 10, 10): the window's centre is over (10, 10).
  std::string output;
  ASSERT_EQ(
      runViewer("0.02 wait_load\n0.1 view_projection plan\n0.15 screenshot " + path("plan.png") +
                    "\n0.2 measure distance\n0.25 mouse_move 640 360\n0.26 mouse_down left\n"
                    "0.27 mouse_up left\n0.3 view_projection perspective\n0.35 quit\n",
                &output, terrain + " --point-size 3"),
      0)
      << output;
  const std::regex picked("measure point \\(([^,]+), ([^,]+), ([^)]+)\\)");
  std::smatch match;
  ASSERT_TRUE(std::regex_search(output, match, picked)) << output;
  EXPECT_NEAR(std::stod(match[1]), 10.0, 0.5) << output;
  EXPECT_NEAR(std::stod(match[2]), 10.0, 0.5) << output;
  EXPECT_NE(output.find("plan view (orthographic)"), std::string::npos) << output;
  EXPECT_TRUE(std::filesystem::exists(path("plan.png")));
}

TEST_F(ProfileToolsXvfb, StartsInTheOrthographicViewThatPcvRenderDraws) {
  const std::string terrain = writeTerrain();
  for (const std::string view : {"plan", "front"}) {
    std::string output;
    ASSERT_EQ(runViewer("0.02 wait_load\n0.1 screenshot " + path(view + "-start.png") +
                            "\n0.15 key_down A\n0.25 key_up A\n0.3 key_press Home\n"
                            "0.35 screenshot " + path(view + "-home.png") + "\n0.4 quit\n",
                        &output, terrain + " --point-size 2 --ortho " + view),
              0)
        << output;
    std::string rendered;
    ASSERT_EQ(test::runCommand(test::pcvExecutable().string() + " render " + terrain +
                                   " --point-size 2 --ortho " + view +
                                   " --size 1280x720 --backend cpu --out " + path(view + ".png"),
                               &rendered),
              0)
        << rendered;
    const Image expected = readPng(path(view + ".png"));
    EXPECT_GT(test::countLitPixels(expected, kOpaqueBlack), 100u) << view;  // front: a thin band
    EXPECT_EQ(test::countDifferentPixels(readPng(path(view + "-start.png")), expected), 0u)
        << view << "\n" << output;
    EXPECT_EQ(test::countDifferentPixels(readPng(path(view + "-home.png")), expected), 0u)
        << view << "\n" << output;
  }
}

}  // namespace
}  // namespace pcv
