// The quality options of `pcv render` and `pcv bench`, end to end through the executable.
#include <unistd.h>

#include <filesystem>
#include <set>

#include "pcv/io/png_writer.hpp"
#include "json_report.hpp"
#include "test_support.hpp"

namespace pcv {
namespace {

class QualityCli : public ::testing::Test {
 protected:
  std::filesystem::path output(const std::string& name) {
    return std::filesystem::temp_directory_path() /
           ("pcv_quality_cli_" + std::to_string(::getpid()) + "_" + name);
  }
  int run(const std::string& arguments, std::string* text) {
    return test::runCommand(test::pcvExecutable().string() + " " + arguments, text);
  }
  Image render(const std::string& arguments, const std::string& name) {
    const auto png = output(name);
    std::string text;
    EXPECT_EQ(
        run("render --backend cpu --size 160x90 --out " + png.string() + " " + arguments, &text), 0)
        << text;
    Image image = readPng(png);
    std::filesystem::remove(png);
    return image;
  }
};

TEST_F(QualityCli, LargerPointsCoverMorePixels) {
  const uint64_t one = test::countLitPixels(render("--points 200000", "one.png"), kOpaqueBlack);
  const uint64_t three =
      test::countLitPixels(render("--points 200000 --point-size 3", "three.png"), kOpaqueBlack);
  EXPECT_GT(three, one + one / 5);
}

TEST_F(QualityCli, GradientBackgroundRunsFromBottomToTop) {
  const Image image = render("--points 0 --background 000000 --background-top 0,0,255", "bg.png");
  EXPECT_EQ(image.at(0, 0), packRgba(0, 0, 0));
  EXPECT_EQ(image.at(0, image.height - 1), packRgba(0, 0, 255));
}

TEST_F(QualityCli, OutOfRangePointSizeIsOneClearLine) {
  std::string text;
  EXPECT_EQ(
      run("render --backend cpu --points 10 --point-size 17 --out " + output("bad.png").string(),
          &text),
      1);
  EXPECT_NE(text.find("point size"), std::string::npos) << text;
}

TEST_F(QualityCli, BadColorIsRejected) {
  std::string text;
  EXPECT_NE(
      run("render --backend cpu --points 10 --background 12345 --out " + output("bad.png").string(),
          &text),
      0);
  EXPECT_NE(text.find("bad colour"), std::string::npos) << text;
}

TEST_F(QualityCli, LasWithoutColorGetsEyeDomeLighting) {
  const auto file = test::testDataDir() / "las" / "vegetation_1_3.las";
  if (!std::filesystem::exists(file)) GTEST_SKIP() << file << " is not there";
  const auto png = output("las.png");
  const auto report = output("las.json");
  for (const char* edl : {"auto", "off"}) {
    std::string text;
    ASSERT_EQ(run("render --backend cpu --size 160x90 --out " + png.string() + " " + file.string() +
                      " --edl " + edl + " --report " + report.string(),
                  &text),
              0)
        << text;
    const nlohmann::json figures = test::readJsonReport(report);
    EXPECT_EQ(figures.value("eyeDomeLighting", false), edl == std::string("auto"))
        << edl << ": " << figures;
  }
  std::filesystem::remove(png);
  std::filesystem::remove(report);
}

TEST_F(QualityCli, BenchTimesEveryQualityPreset) {
  std::string text;
  const auto json = output("bench.json");
  ASSERT_EQ(run("bench --backend cpu --points 20000 --size 64x36 --frames 1 --warmup 0 "
                "--order both --methods compact,packed --quality-modes every --json " +
                    json.string(),
                &text),
            0)
      << text;
  const nlohmann::json figures = test::readJsonReport(json);
  std::set<std::string> methods, stages;
  for (const nlohmann::json& row : figures.value("results", nlohmann::json::array())) {
    methods.insert(row.value("method", ""));
    for (const auto& [stage, times] : row.value("stages_ms", nlohmann::json::object()).items()) {
      stages.insert(stage);
    }
  }
  for (const char* row : {"compact+size3", "compact+edl", "compact+hq", "compact+fill2",
                          "compact+world", "compact+all"}) {
    EXPECT_TRUE(methods.contains(row)) << row << "\n" << figures;
  }
  EXPECT_TRUE(stages.contains("splat")) << figures;
  std::filesystem::remove(json);
}

}  // namespace
}  // namespace pcv
