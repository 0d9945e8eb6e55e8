// The viewer's first minutes under Xvfb, read from its --report record: bad inputs on the
// command line open the window with their errors beside what did open; every error is printed
// once; Escape cancels a tool's action before it toggles mouselook; a clip box made in plan view
// keeps the whole height.
#include <filesystem>
#include <string>

#include "json_report.hpp"
#include "synthetic_point_files.hpp"
#include "xvfb_viewer_fixture.hpp"

namespace pcv {
namespace {

using nlohmann::json;
using test::sharedFile;

class ViewerStartXvfb : public test::ViewerXvfb {
 protected:
  /// Runs the script with --report; the record, or an empty object (a failed expectation).
  json runWithReport(const std::string& script, std::string* output, const std::string& extra,
                     int expectedStatus = 0) {
    const int status = runViewer(script, output, "--report " + path("report.json") + " " + extra);
    EXPECT_EQ(status, expectedStatus) << *output;
    if (status != 0) return json::object();
    return test::readJsonReport(path("report.json"));
  }
  /// How often `text` occurs in `output`.
  static size_t occurrences(const std::string& output, const std::string& text) {
    size_t count = 0;
    for (size_t at = output.find(text); at != std::string::npos; at = output.find(text, at + 1)) {
      ++count;
    }
    return count;
  }
  static std::string click(double seconds, int x, int y) {
    return std::to_string(seconds) + " mouse_move " + std::to_string(x) + " " + std::to_string(y) +
           "\n" + std::to_string(seconds + 0.002) + " mouse_down left\n" +
           std::to_string(seconds + 0.004) + " mouse_up left\n";
  }
};

/// The errors the record lists.
std::vector<std::string> errorsOf(const json& report) {
  return report.value("errors", std::vector<std::string>{});
}

TEST_F(ViewerStartXvfb, AFileThatIsNoPointCloudOpensTheWindowWithItsError) {
  test::writeText(path("notlas.las"), "this is no LAS file\n");
  std::string output;
  const json report = runWithReport("0.02 wait_load\n0.1 quit\n", &output, path("notlas.las"));
  const std::vector<std::string> errors = errorsOf(report);
  ASSERT_EQ(errors.size(), 1u) << output;
  EXPECT_NE(errors[0].find(path("notlas.las")), std::string::npos) << errors[0];
  EXPECT_GT(report.value("frames", 0), 0);
  EXPECT_FALSE(report.contains("sceneBounds")) << "nothing opened, not the cylinders either";
}

TEST_F(ViewerStartXvfb, AnEmptyFolderOpensTheWindowWithItsError) {
  std::filesystem::create_directories(path("empty"));
  std::string output;
  const json report = runWithReport("0.02 wait_load\n0.1 quit\n", &output, path("empty"));
  EXPECT_EQ(errorsOf(report).size(), 1u) << output;
  EXPECT_GT(report.value("frames", 0), 0);
}

TEST_F(ViewerStartXvfb, ALazWithABrokenItemListOpensTheWindowWithItsError) {
  const std::string broken = sharedFile("laz-corpus/broken_type.laz");
  if (broken.empty()) GTEST_SKIP() << "shared test data not found";
  std::string output;
  const json report = runWithReport("0.02 wait_load\n0.1 quit\n", &output, broken);
  const std::vector<std::string> errors = errorsOf(report);
  ASSERT_EQ(errors.size(), 1u) << output;
  EXPECT_NE(errors[0].find(broken), std::string::npos) << errors[0];
}

TEST_F(ViewerStartXvfb, OneBadFileAmongGoodOnesLeavesTheGoodOnesShown) {
  const std::string good = sharedFile("las/autzen_trim.las");
  if (good.empty()) GTEST_SKIP() << "shared test data not found";
  test::writeText(path("notlas.las"), "this is no LAS file\n");
  std::string output;
  const json report =
      runWithReport("0.02 wait_load\n0.1 quit\n", &output, good + " " + path("notlas.las"));
  const std::vector<std::string> errors = errorsOf(report);
  ASSERT_EQ(errors.size(), 1u) << output;
  EXPECT_NE(errors[0].find(path("notlas.las")), std::string::npos) << errors[0];
  // The Autzen tile (UTM) is shown: its bounds, not the cylinders' around the origin.
  ASSERT_TRUE(report.contains("sceneBounds")) << output;
  EXPECT_GT(report["sceneBounds"]["min"][0].get<double>(), 600000.0);
}

TEST_F(ViewerStartXvfb, EveryErrorIsPrintedOnce) {
  const std::string good = sharedFile("las/autzen_trim.las");
  const std::string bad = sharedFile("las/1.2-with-color-clipped.las");
  if (good.empty() || bad.empty()) GTEST_SKIP() << "shared test data not found";
  std::string output;
  // The truncated file (refused: --strict) given on the command line, then opened at run time, then
  // a polygon closed with too few corners: three errors in the window, each once on stderr.
  const json report = runWithReport("0.02 wait_load\n0.1 open " + bad +
                                        "\n0.1 wait_load\n0.2 polygon on\n0.3 polygon_close\n"
                                        "0.4 quit\n",
                                    &output, "--strict " + good + " " + bad);
  const std::vector<std::string> errors = errorsOf(report);
  ASSERT_EQ(errors.size(), 3u) << output;
  EXPECT_EQ(errors[0], errors[1]);
  EXPECT_NE(errors[0].find(bad), std::string::npos) << errors[0];
  EXPECT_EQ(occurrences(output, errors[0]), 2u) << output;
  EXPECT_EQ(occurrences(output, errors[2]), 1u) << output;
}

TEST_F(ViewerStartXvfb, EscapeCancelsTheToolsActionBeforeItTogglesMouselook) {
  std::string output;
  const json report =
      runWithReport("0.1 measure distance\n0.12 key_press Escape\n0.2 polygon on\n" +
                        click(0.22, 500, 300) + click(0.24, 700, 300) +
                        "0.3 key_press Escape\n0.32 key_press Escape\n"
                        "0.34 key_press Escape\n0.36 key_press Escape\n0.4 quit\n",
                    &output, "");
  const json expected = json::parse(R"([{"cancelled": "Measure"}, {"cancelled": "Polygon"},
      {"cancelled": "Polygon"}, {"mouselook": true}, {"mouselook": false}])");
  EXPECT_EQ(report.value("escapes", json::array()), expected) << output;
  EXPECT_FALSE(report.value("mouselook", true));
  EXPECT_FALSE(report["clip"].value("polygon", true)) << "cancelled corners close nothing";
}

TEST_F(ViewerStartXvfb, AClipBoxMadeInPlanViewKeepsTheWholeHeight) {
  const std::string las = sharedFile("las/autzen_trim.las");
  if (las.empty()) GTEST_SKIP() << "shared test data not found";
  std::string output;
  const json report = runWithReport(
      "0.02 wait_load\n0.1 view_projection plan\n0.2 key_press X\n0.3 quit\n", &output, las);
  ASSERT_TRUE(report.contains("sceneBounds") && report["clip"].contains("box")) << output;
  const json& scene = report["sceneBounds"];
  const json& box = report["clip"]["box"];
  EXPECT_LE(box["min"][2].get<double>(), scene["min"][2].get<double>());
  EXPECT_GE(box["max"][2].get<double>(), scene["max"][2].get<double>());
  // x and y: the middle half, as before.
  EXPECT_GT(box["min"][0].get<double>(), scene["min"][0].get<double>());
  EXPECT_LT(box["max"][1].get<double>(), scene["max"][1].get<double>());
}

}  // namespace
}  // namespace pcv
