// `pcv render --ortho`: plan, front and side views of the cylinders, a width given or fitted, the
// scale bar's figures in --report, and the flags refused where they mean nothing.
#include <filesystem>

#include "io_test_util.hpp"
#include "json_report.hpp"
#include "pcv/io/png_writer.hpp"
#include "test_support.hpp"
#include "vpc_test_files.hpp"

namespace pcv {
namespace {

int run(const std::string& arguments, std::string* text) {
  return test::runCommand(
      test::pcvExecutable().string() + " render --backend cpu --points 100000 " + arguments, text);
}

TEST(OrthoCli, EachViewDrawsTheCylinders) {
  test::TempDir dir;
  for (const char* view : {"plan", "front", "side"}) {
    const auto png = dir.file(std::string(view) + ".png");
    std::string text;
    ASSERT_EQ(run("--size 160x90 --ortho " + std::string(view) + " --out " + png.string(), &text),
              0)
        << text;
    EXPECT_GT(test::countLitPixels(readPng(png), kOpaqueBlack), 500u) << view;
  }
}

TEST(OrthoCli, ScaleBarIsReportedAtItsWidth) {
  test::TempDir dir;
  const auto png = dir.file("plan.png"), report = dir.file("plan.json");
  std::string text;
  // 40 units across 400 px: 0.1 unit per pixel; a quarter of the width (10 units) holds a 10.
  ASSERT_EQ(run("--size 400x200 --ortho plan --ortho-width 40 --scale-bar --out " + png.string() +
                    " --report " + report.string(),
                &text),
            0)
      << text;
  const nlohmann::json figures = test::readJsonReport(report);
  EXPECT_DOUBLE_EQ(figures["scaleBar"].value("units", 0.0), 10.0) << figures;
  EXPECT_NEAR(figures["scaleBar"].value("pixels", 0.0), 100.0, 1e-9) << figures;
}

TEST(OrthoCli, TheScaleBarSaysTheUnitTheFileDeclares) {
  test::TempDir dir;
  const auto tile = dir.file("utm.las"), png = dir.file("utm.png"), report = dir.file("utm.json");
  test::writeTile(tile, 500, {500000, 5000000, 0}, {500040, 5000020, 5},
                  {test::wktRecord(test::kUtm33Wkt)});
  std::string text;
  ASSERT_EQ(test::runCommand(test::pcvExecutable().string() + " render " + tile.string() +
                                 " --backend cpu --size 400x200 --ortho plan --scale-bar --out " +
                                 png.string() + " --report " + report.string(),
                             &text),
            0)
      << text;
  const nlohmann::json figures = test::readJsonReport(report);
  EXPECT_EQ(figures["scaleBar"].value("unit", ""), "m") << figures;
  const std::string label = figures["scaleBar"].value("label", "");
  EXPECT_EQ(label.substr(label.size() - 2), " m") << figures;
  // The demo scene declares no unit.
  ASSERT_EQ(run("--size 400x200 --ortho plan --scale-bar --out " + png.string() + " --report " +
                    report.string(),
                &text),
            0)
      << text;
  EXPECT_TRUE(test::readJsonReport(report)["scaleBar"]["unit"].is_null());
}

TEST(OrthoCli, FlagsWithoutAnOrthographicViewAreRefused) {
  std::string text;
  EXPECT_NE(run("--size 64x32 --scale-bar --out /dev/null", &text), 0);
  EXPECT_NE(text.find("--ortho"), std::string::npos) << text;
  EXPECT_NE(run("--size 64x32 --ortho-width 3 --out /dev/null", &text), 0);
  EXPECT_NE(run("--size 64x32 --ortho top --out /dev/null", &text), 0);
  EXPECT_NE(run("--size 64x32 --ortho plan --ortho-width 0 --out /dev/null", &text), 0);
}

}  // namespace
}  // namespace pcv
