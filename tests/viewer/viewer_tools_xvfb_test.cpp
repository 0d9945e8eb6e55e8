// The viewer's tools end to end under Xvfb: measuring a known distance on a synthetic cloud, a
// clip box typed and dragged (counted in lit pixels), files dropped on the window, a bookmark
// saved and restored across sessions, and "Copy view" giving pcv render the same image.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>

#include "json_report.hpp"
#include "pcv/io/png_writer.hpp"
#include "vpc_test_files.hpp"
#include "xvfb_viewer_fixture.hpp"

namespace pcv {
namespace {

class ViewerToolsXvfb : public test::ViewerXvfb {
 protected:
  /// 64 x 64 points in the plane x = 0 seen face on from x = -3 in the 1280 x 720 window: each
  /// point has a pixel of its own (5.2 px apart), so lit pixels count the points drawn.
  std::string writeGrid() {
    std::ofstream grid(path("grid.xyz"));
    for (int i = 0; i < 64; ++i) {
      for (int j = 0; j < 64; ++j) {
        grid << "0 " << (i - 31.5) / 40 << " " << (j - 31.5) / 40 << " 200 100 50\n";
      }
    }
    return path("grid.xyz");
  }
  uint64_t lit(const std::string& png) {
    return test::countLitPixels(readPng(path(png)), kOpaqueBlack);
  }
};

/// The numbers the viewer prints for a finished measurement.
struct Printed {
  double length = NAN, horizontal = NAN, height = NAN;
};

Printed printedMeasurement(const std::string& output, int index, const char* kind) {
  const std::regex pattern("measurement " + std::to_string(index) + " \\(" + kind +
                           "\\): length (\\S+), horizontal (\\S+), height (\\S+),");
  std::smatch match;
  if (!std::regex_search(output, match, pattern)) return {};
  return {std::stod(match[1]), std::stod(match[2]), std::stod(match[3])};
}

TEST_F(ViewerToolsXvfb, MeasuresTheFilesDistanceAndHeightInDouble) {
  // Two points at UTM-like coordinates; the camera 50 m west of the first, looking east: the
  // first lands at the window's centre, the second at (545.1, 300.0).
  const double a[3] = {500000.125, 4000000.5, 100.25}, b[3] = {500030.625, 4000012.75, 108.0};
  std::ofstream(path("two.xyz")) << "500000.125 4000000.5 100.25 255 255 255\n"
                                 << "500030.625 4000012.75 108 255 255 255\n";
  // Two clicks at `first` and `second` seconds: on the first point, then on the second.
  const auto clicks = [](const char* first, const char* second) {
    return std::string(first) + " mouse_move 640 360\n" + first + " mouse_down left\n" + first +
           " mouse_up left\n" + second + " mouse_move 545 300\n" + second + " mouse_down left\n" +
           second + " mouse_up left\n";
  };
  std::string output;
  ASSERT_EQ(
      runViewer("0.02 wait_load\n0.1 measure distance\n" + clicks("0.2", "0.3") +
                    "0.4 key_press 3\n" + clicks("0.45", "0.5") + "0.55 export_measures " +
                    path("m.json") + "\n0.6 quit\n",
                &output, path("two.xyz") + " --eye 499950.125,4000000.5,100.25 --point-size 3"),
      0)
      << output;
  const double dx = b[0] - a[0], dy = b[1] - a[1], dz = b[2] - a[2];
  const double distance = std::sqrt(dx * dx + dy * dy + dz * dz);
  const Printed d = printedMeasurement(output, 1, "distance");
  EXPECT_NEAR(d.length, distance, 1e-6 * distance) << output;
  const Printed h = printedMeasurement(output, 2, "height");
  EXPECT_NEAR(h.height, dz, 1e-6 * dz) << output;
  EXPECT_NEAR(h.horizontal, std::sqrt(dx * dx + dy * dy), 1e-6 * distance) << output;
  std::ifstream exported(path("m.json"));
  const std::string json((std::istreambuf_iterator<char>(exported)), {});
  EXPECT_NE(json.find("[500030.625, 4000012.75, 108]"), std::string::npos) << json;
}

TEST_F(ViewerToolsXvfb, MeasurementsSayTheUnitTheFileDeclares) {
  // The two points above in a LAS tile in WGS 84 / UTM zone 33N, whose unit is the metre.
  test::writeTile(path("utm.las"), 2, {500000.125, 4000000.5, 100.25},
                  {500030.625, 4000012.75, 108.0}, {test::wktRecord(test::kUtm33Wkt)});
  std::string output;
  ASSERT_EQ(
      runViewer("0.02 wait_load\n0.1 measure distance\n0.2 mouse_move 640 360\n"
                "0.2 mouse_down left\n0.2 mouse_up left\n0.3 mouse_move 545 300\n"
                "0.3 mouse_down left\n0.3 mouse_up left\n0.4 export_measures " +
                    path("m.json") + "\n0.5 quit\n",
                &output, path("utm.las") + " --eye 499950.125,4000000.5,100.25 --point-size 3"),
      0)
      << output;
  EXPECT_NE(output.find("measurement 1 (distance)"), std::string::npos) << output;
  EXPECT_NE(output.find(", unit m\n"), std::string::npos) << output;
  std::ifstream exported(path("m.json"));
  const std::string json((std::istreambuf_iterator<char>(exported)), {});
  EXPECT_NE(json.find("\"unit\": \"m\""), std::string::npos) << json;
}

TEST_F(ViewerToolsXvfb, ToolKeysAndDoubleClicksReachTheirTools) {
  const std::string grid = writeGrid();
  // Grid points in the window (face on from x = -3): A (637.4, 357.4), B 0.1 to its left on
  // screen (616.6, 357.4), C 0.1 above it (637.4, 336.6).
  const auto click = [](const char* at, const char* xy) {
    return std::string(at) + " mouse_move " + xy + "\n" + at + " mouse_down left\n" + at +
           " mouse_up left\n";
  };
  std::string output;
  ASSERT_EQ(
      runViewer("0.02 wait_load\n0.1 screenshot " + path("all.png") +
                    "\n0.12 key_press X\n0.15 screenshot " + path("box.png") +
                    "\n0.2 key_press X\n0.25 screenshot " + path("off.png") +
                    "\n0.3 key_press B\n0.35 key_press M\n0.35 key_press 2\n" +
                    click("0.4", "637.4 357.4") + click("0.45", "616.6 357.4") +
                    "0.5 key_press Backspace\n" + click("0.55", "637.4 336.6") +
                    "0.6 key_press Enter\n" + click("0.65", "637.4 357.4") +
                    click("0.7", "616.6 357.4") +
                    "0.75 double_click 616.6 357.4\n0.8 key_press Delete\n"
                    "0.85 export_measures " +
                    path("m.json") + "\n0.9 key_press M\n0.95 double_click 637.4 357.4\n1.0 quit\n",
                &output, grid + " --eye -3,0,0 --point-size 3"),
      0)
      << output;
  // X: the box over the middle of the scene cuts points away; X again: all of them back.
  EXPECT_LT(lit("box.png"), lit("all.png"));
  EXPECT_EQ(test::countDifferentPixels(readPng(path("all.png")), readPng(path("off.png"))), 0u);
  // B: a bookmark named after its number, in the file.
  std::ifstream bookmarks(dir_ / "config" / "pcv" / "bookmarks.json");
  const std::string saved((std::istreambuf_iterator<char>(bookmarks)), {});
  EXPECT_NE(saved.find("\"name\": \"View 1\""), std::string::npos) << saved;
  // M, 2, clicks, Backspace, Enter: a polyline A-C; then A-B ended by a double click (no focus
  // while measuring), which Delete removes; after M, a double click focuses.
  EXPECT_NEAR(printedMeasurement(output, 1, "polyline").length, 0.1, 1e-6) << output;
  EXPECT_NEAR(printedMeasurement(output, 2, "polyline").length, 0.1, 1e-6) << output;
  std::ifstream exported(path("m.json"));
  const std::string json((std::istreambuf_iterator<char>(exported)), {});
  EXPECT_EQ(std::count(json.begin(), json.end(), '{'), 1) << json;
  const size_t focus = output.find("focus on");
  ASSERT_NE(focus, std::string::npos) << output;
  EXPECT_GT(focus, output.find("measure off")) << output;
}

TEST_F(ViewerToolsXvfb, AMistakeInAToolsScriptCommandStopsTheViewerAtItsLine) {
  std::string output;
  EXPECT_EQ(runViewer("0.1 measure distance\n0.2 measure sideways\n0.3 quit\n", &output), 1);
  EXPECT_NE(output.find("script.txt:2: "), std::string::npos) << output;
}

TEST_F(ViewerToolsXvfb, ClipBoxTypedAndDraggedHidesExactlyThePointsOutside) {
  const std::string grid = writeGrid();
  // The box keeps 20 x 20 points; its top face's handle is at (0, 0.05, 0.3): window
  // (629.6, 297.6). Dragged up 41.6 px (0.2 units at 3 units' depth), it keeps 8 rows more.
  std::string output;
  ASSERT_EQ(
      runViewer("0.02 wait_load\n0.1 screenshot " + path("all.png") +
                    "\n0.15 clip_box -1 -0.2 -0.2 1 0.3 0.3\n0.2 screenshot " + path("box.png") +
                    "\n0.25 clip_keep outside\n0.3 screenshot " + path("outside.png") +
                    "\n0.35 clip_keep inside\n0.4 mouse_move 629.6 297.6\n"
                    "0.4 mouse_down left\n0.45 mouse_move 629.6 256\n0.5 mouse_up left\n"
                    "0.55 screenshot " +
                    path("dragged.png") + "\n0.6 quit\n",
                &output, grid + " --eye -3,0,0"),
      0)
      << output;
  EXPECT_EQ(lit("all.png"), 64u * 64u);
  EXPECT_EQ(lit("box.png"), 20u * 20u);
  EXPECT_EQ(lit("outside.png"), 64u * 64u - 20u * 20u);
  EXPECT_EQ(lit("dragged.png"), 20u * 28u) << output;
  EXPECT_TRUE(std::regex_search(output, std::regex(R"(clip box \(-1\.0+, -0\.2\d+, -0\.2\d+\) to )"
                                                   R"(\(1\.0+, 0\.3\d+, 0\.5\d+\))")))
      << output;
}

TEST_F(ViewerToolsXvfb, EscapePutsADraggedHandleBackAndDropsPickedPoints) {
  const std::string grid = writeGrid();
  // The clip box's top handle grabbed and dragged up, then Escape before the release: the box is
  // as typed. Then a profile line and a distance with a point picked on the grid each: Escape
  // drops the point, and again leaves the tool.
  std::string output;
  ASSERT_EQ(runViewer("0.02 wait_load\n0.15 clip_box -1 -0.2 -0.2 1 0.3 0.3\n"
                      "0.4 mouse_move 629.6 297.6\n0.4 mouse_down left\n0.45 mouse_move 629.6 256\n"
                      "0.46 key_press Escape\n0.5 mouse_up left\n"
                      "0.6 profile on\n0.62 mouse_move 640 360\n0.62 mouse_down left\n"
                      "0.63 mouse_up left\n0.64 key_press Escape\n0.65 key_press Escape\n"
                      "0.7 measure distance\n0.72 mouse_move 650 370\n0.72 mouse_down left\n"
                      "0.73 mouse_up left\n0.74 key_press Escape\n0.75 key_press Escape\n"
                      "0.8 quit\n",
                      &output, grid + " --eye -3,0,0 --report " + path("report.json")),
            0)
      << output;
  const nlohmann::json report = test::readJsonReport(path("report.json"));
  EXPECT_EQ(report.value("escapes", nlohmann::json::array()),
            nlohmann::json::parse(R"([{"cancelled": "Clip"}, {"cancelled": "Profile"},
                {"cancelled": "Profile"}, {"cancelled": "Measure"}, {"cancelled": "Measure"}])"))
      << output;
  ASSERT_TRUE(report.contains("clip") && report["clip"].contains("box")) << output;
  EXPECT_EQ(report["clip"]["box"]["max"], nlohmann::json::parse("[1.0, 0.3, 0.3]"));
  EXPECT_FALSE(report.value("mouselook", true));
}

TEST_F(ViewerToolsXvfb, DroppedFilesOpenAndShiftAddsThem) {
  std::ofstream(path("a.xyz")) << "0 0 0 255 0 0\n1 0 0 255 0 0\n1 1 0 255 0 0\n";
  std::ofstream(path("b.xyz")) << "0 0 1 0 255 0\n1 0 1 0 255 0\n";
  std::string output;
  ASSERT_EQ(
      runViewer("0.1 drop " + path("a.xyz") + "\n0.1 wait_load\n0.2 key_down LeftShift\n0.2 drop " +
                    path("b.xyz") + "\n0.25 key_up LeftShift\n0.25 wait_load\n0.3 ui_shot " +
                    path("dropped.png") + "\n0.4 quit\n",
                &output),
      0)
      << output;
  EXPECT_NE(output.find("1 file(s) dropped: opening them"), std::string::npos) << output;
  EXPECT_NE(output.find("1 file(s) dropped: adding them to the scene"), std::string::npos);
  EXPECT_NE(output.find("loaded " + path("b.xyz") + ": 2 points"), std::string::npos) << output;
  // The cylinders went; the two files are shown together.
  EXPECT_NE(output.find("pcv: 5 points coloured by rgb"), std::string::npos) << output;
}

TEST_F(ViewerToolsXvfb, BookmarksComeBackInTheSameAndALaterSession) {
  const std::string grid = writeGrid();
  std::string output;
  ASSERT_EQ(runViewer("0.02 wait_load\n0.1 screenshot " + path("saved.png") +
                          "\n0.1 bookmark_save front\n0.15 key_down D\n0.4 key_up D\n"
                          "0.45 screenshot " +
                          path("moved.png") + "\n0.5 bookmark_restore front\n0.55 screenshot " +
                          path("restored.png") + "\n0.6 quit\n",
                      &output, grid),
            0)
      << output;
  const Image saved = readPng(path("saved.png"));
  EXPECT_GT(test::countDifferentPixels(saved, readPng(path("moved.png"))), 1000u);
  EXPECT_EQ(test::countDifferentPixels(saved, readPng(path("restored.png"))), 0u);
  // Kept per file beside the user's configuration.
  const std::filesystem::path file = dir_ / "config" / "pcv" / "bookmarks.json";
  std::ifstream in(file);
  const std::string json((std::istreambuf_iterator<char>(in)), {});
  EXPECT_NE(json.find(std::filesystem::weakly_canonical(grid).string()), std::string::npos) << json;
  EXPECT_NE(json.find("\"name\": \"front\""), std::string::npos) << json;
  // A later session: the bookmark takes the camera back to exactly that view.
  ASSERT_EQ(runViewer("0.02 wait_load\n0.1 bookmark_restore front\n0.2 screenshot " +
                          path("later.png") + "\n0.3 quit\n",
                      &output, grid + " --eye 5,5,5"),
            0)
      << output;
  EXPECT_EQ(test::countDifferentPixels(saved, readPng(path("later.png"))), 0u);
}

TEST_F(ViewerToolsXvfb, HomeFramesTheCloudAgain) {
  const std::string grid = writeGrid();
  std::string output;
  ASSERT_EQ(runViewer("0.02 wait_load\n0.1 screenshot " + path("framed.png") +
                          "\n0.15 key_down A\n0.3 key_up A\n0.35 key_press Home\n0.4 screenshot " +
                          path("home.png") + "\n0.5 quit\n",
                      &output, grid),
            0)
      << output;
  EXPECT_NE(output.find("pcv: home"), std::string::npos) << output;
  EXPECT_EQ(test::countDifferentPixels(readPng(path("framed.png")), readPng(path("home.png"))), 0u);
}

TEST_F(ViewerToolsXvfb, CopyViewGivesPcvRenderTheSameImage) {
  // A coloured helix with depth, moved to, clipped and drawn with two-pixel points.
  {
    std::ofstream helix(path("helix.xyz"));
    for (int i = 0; i < 20000; ++i) {
      const double t = i * 0.002;
      helix << std::cos(t * 6) * (1 + 0.1 * t) << " " << std::sin(t * 6) * (1 + 0.1 * t) << " "
            << t * 0.2 << " " << (i * 7) % 256 << " " << (i * 13) % 256 << " " << 128 << "\n";
    }
  }
  std::string output;
  ASSERT_EQ(runViewer("0.02 wait_load\n0.1 key_down W\n0.2 key_up W\n0.2 mode orbit\n"
                      "0.25 mouse_move 700 400\n0.25 mouse_down left\n0.3 mouse_move 760 380\n"
                      "0.35 mouse_up left\n0.4 clip_box -2 -2 0.5 2 2 3\n0.5 key_press C\n"
                      "0.5 screenshot " +
                          path("viewer.png") + "\n0.6 quit\n",
                      &output, path("helix.xyz") + " --point-size 2"),
            0)
      << output;
  std::smatch match;
  ASSERT_TRUE(std::regex_search(output, match, std::regex("\n(pcv render [^\n]+) --out \\S+\n")))
      << output;
  const std::string command = match[1].str();
  EXPECT_NE(command.find("--clip-box -2,-2,0.5,2,2,3"), std::string::npos) << command;
  EXPECT_NE(command.find("--point-size 2"), std::string::npos) << command;
  std::string rendered;
  ASSERT_EQ(test::runCommand(test::pcvExecutable().string() + command.substr(3) +
                                 " --backend cpu --out " + path("render.png"),
                             &rendered),
            0)
      << rendered;
  const Image viewer = readPng(path("viewer.png"));
  EXPECT_GT(test::countLitPixels(viewer, kOpaqueBlack), 5000u);
  EXPECT_EQ(test::countDifferentPixels(viewer, readPng(path("render.png"))), 0u) << command;
}

TEST_F(ViewerToolsXvfb, StreamedCopcViewConvergesToThePcvRenderImage) {
  const std::filesystem::path copc = test::testDataDir() / "laz-corpus" / "lone-star.copc.laz";
  if (test::testDataDir().empty() || !std::filesystem::exists(copc)) {
    GTEST_SKIP() << "lone-star.copc.laz not found in the shared data";
  }
  // Streamed from its octree, flown closer (other nodes), converged, then the copied view.
  std::string output;
  ASSERT_EQ(runViewer("0.02 wait_load\n0.1 key_down W\n0.3 key_up W\n0.3 wait_load\n"
                      "0.4 screenshot " +
                          path("streamed.png") + "\n0.4 key_press C\n0.5 quit\n",
                      &output, copc.string()),
            0)
      << output;
  EXPECT_NE(output.find("streaming "), std::string::npos) << output;
  std::smatch match;
  ASSERT_TRUE(std::regex_search(output, match, std::regex("\n(pcv render [^\n]+) --out \\S+\n")))
      << output;
  const std::string command = match[1].str();
  std::string rendered;
  ASSERT_EQ(test::runCommand(test::pcvExecutable().string() + command.substr(3) +
                                 " --backend cpu --out " + path("render.png"),
                             &rendered),
            0)
      << rendered;
  EXPECT_NE(rendered.find("converged after"), std::string::npos) << rendered;
  const Image viewer = readPng(path("streamed.png"));
  EXPECT_GT(test::countLitPixels(viewer, kOpaqueBlack), 5000u);
  EXPECT_EQ(test::countDifferentPixels(viewer, readPng(path("render.png"))), 0u) << command;
}

}  // namespace
}  // namespace pcv
