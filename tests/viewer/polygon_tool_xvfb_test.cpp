// The Polygon tool under Xvfb: corners clicked on the view and Enter close a polygon that clips
// what is drawn (counted in lit pixels: each point of the grid has a pixel of its own), inside
// or outside; "Export selection" then writes exactly the points drawn; a plan polygon from the
// script clips a prism; clearing it shows everything again.
#include <filesystem>
#include <regex>

#include "pcv/io/png_writer.hpp"
#include "pcv/io/point_records.hpp"
#include "synthetic_point_files.hpp"
#include "xvfb_viewer_fixture.hpp"

namespace pcv {
namespace {

class PolygonToolXvfb : public test::ViewerXvfb {
 protected:
  /// 64 x 64 points in the plane x = 0 seen face on from x = -3.
  std::string writeGrid() {
    std::vector<test::SyntheticPoint> points;
    for (int i = 0; i < 64; ++i) {
      for (int j = 0; j < 64; ++j) {
        points.push_back({.x = 0.0, .y = (i - 31.5) / 40, .z = (j - 31.5) / 40,
                          .red = 50000, .green = 30000, .blue = 10000, .classification = 2});
      }
    }
    test::writeBytes(path("grid.las"), test::makeLas(points, {.pointFormat = 3, .scale = 0.0001}));
    return path("grid.las");
  }
  uint64_t lit(const std::string& png) {
    return test::countLitPixels(readPng(path(png)), kOpaqueBlack);
  }
  static std::string click(double seconds, int x, int y) {
    return std::to_string(seconds) + " mouse_move " + std::to_string(x) + " " +
           std::to_string(y) + "\n" + std::to_string(seconds + 0.002) + " mouse_down left\n" +
           std::to_string(seconds + 0.004) + " mouse_up left\n";
  }
};

TEST_F(PolygonToolXvfb, ClickedPolygonClipsTheViewAndExportsWhatIsDrawn) {
  const std::string grid = writeGrid();
  std::string output;
  // A concave polygon over the middle of the window, where the grid is.
  const std::string script = "0.02 wait_load\n0.1 screenshot " + path("all.png") +
                             "\n0.12 key_press L\n" + click(0.14, 560, 250) +
                             click(0.16, 760, 290) + click(0.18, 650, 360) +
                             click(0.20, 740, 470) + click(0.22, 540, 450) +
                             "0.26 key_press Enter\n0.3 screenshot " + path("inside.png") +
                             "\n0.32 polygon_keep outside\n0.34 screenshot " + path("outside.png") +
                             "\n0.36 polygon_keep inside\n0.38 export_selection " +
                             path("out.las") + "\n0.4 polygon_plan -1,-0.2,1,-0.2,1,0.3,-1,0.3\n" +
                             "0.42 screenshot " + path("plan.png") +
                             "\n0.44 polygon_clear\n0.46 screenshot " + path("cleared.png") +
                             "\n0.5 quit\n";
  ASSERT_EQ(runViewer(script, &output, grid + " --eye -3,0,0"), 0) << output;
  EXPECT_NE(output.find("polygon of 5 corners clips the view"), std::string::npos) << output;
  const uint64_t all = lit("all.png"), inside = lit("inside.png"), outside = lit("outside.png");
  EXPECT_EQ(all, 64u * 64u) << output;
  EXPECT_GT(inside, 200u) << output;
  EXPECT_LT(inside, all / 2) << output;
  EXPECT_EQ(inside + outside, all) << output;
  // The export holds the points drawn inside, one pixel each, but for points within a fraction
  // of a pixel of an edge: the renderer tests quantized positions in floats, the export the
  // file's coordinates in doubles.
  ASSERT_TRUE(std::filesystem::exists(path("out.las"))) << output;
  const auto exported = int64_t(openLasRecords(path("out.las"))->pointCount());
  EXPECT_LE(std::abs(exported - int64_t(inside)), 4) << output;
  // The plan polygon: the prism over y in [-0.2, 0.3], 20 columns of the grid.
  EXPECT_EQ(lit("plan.png"), 20u * 64u) << output;
  EXPECT_EQ(lit("cleared.png"), all) << output;
}

TEST_F(PolygonToolXvfb, TooFewCornersAndBadPlansAreRefused) {
  const std::string grid = writeGrid();
  std::string output;
  ASSERT_EQ(runViewer("0.02 wait_load\n0.1 polygon on\n" + click(0.12, 600, 300) +
                          click(0.14, 700, 300) + "0.2 polygon_close\n0.25 screenshot " +
                          path("two.png") + "\n0.3 quit\n",
                      &output, grid + " --eye -3,0,0"),
            0)
      << output;
  EXPECT_EQ(output.find("clips the view"), std::string::npos) << output;
  EXPECT_EQ(lit("two.png"), 64u * 64u) << output;
  // A script line with a bad polygon is refused before the window opens.
  EXPECT_NE(runViewer("0.1 polygon_plan 1,2,3\n0.2 quit\n", &output, grid), 0) << output;
}

}  // namespace
}  // namespace pcv
