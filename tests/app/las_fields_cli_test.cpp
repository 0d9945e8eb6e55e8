// The LAS fields beyond intensity, classes and returns through the CLI: a point format 3 file's
// GPS time filters `pcv render` by range (as `pcv render --help` shows), its point source ID (the
// flight line) colours the points, and a class flag selects what `pcv convert` writes.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "io_test_util.hpp"
#include "json_report.hpp"
#include "pcv/io/png_writer.hpp"
#include "pcv/session/cloud_writer.hpp"
#include "test_support.hpp"

namespace pcv {
namespace {

class LasFieldsCli : public ::testing::Test {
 protected:
  /// A 60 x 60 grid one unit apart, of point format 3: GPS time rising by 1e6 s per column from
  /// 1e8, flight line (point source ID) 1 on the left half, 2 on the right, the first 10 rows
  /// flagged synthetic.
  void SetUp() override {
    auto cloud = std::make_shared<PointCloud>();
    cloud->origin = glm::dvec3(500000.0, 5000000.0, 0.0);
    cloud->hasColor = true;
    cloud->lasPointFormat = 3;
    ScalarAttribute gpsTime{.name = "gps_time", .values = {}, .type = AttributeType::Float64};
    ScalarAttribute source{.name = "point_source_id", .values = {}, .type = AttributeType::UInt16};
    ScalarAttribute synthetic{.name = "synthetic", .values = {}, .type = AttributeType::UInt8};
    for (int i = 0; i < 60; ++i) {
      for (int j = 0; j < 60; ++j) {
        cloud->points.push_back({float(i), float(j), 0.1f * float(i), packRgba(200, 150, 100)});
        gpsTime.push_back(1e8 + 1e6 * i);
        source.push_back(i < 30 ? 1.0 : 2.0);
        synthetic.push_back(j < 10 ? 1.0 : 0.0);
      }
    }
    cloud->attributes = {std::move(gpsTime), std::move(source), std::move(synthetic)};
    las_ = dir_.file("lines.las");
    ASSERT_EQ(writePointCloud(cloud, las_).pointFormat, 3);
  }
  int render(const std::filesystem::path& out, const std::string& flags, std::string* text) {
    return test::runCommand(test::pcvExecutable().string() + " render --backend cpu " +
                                las_.string() + " --size 200x150 --edl off --out " + out.string() +
                                " " + flags,
                            text);
  }
  test::TempDir dir_;
  std::filesystem::path las_;
};

TEST_F(LasFieldsCli, RangeOnGpsTimeDrawsTheEarlyColumns) {
  const auto all = dir_.file("all.png"), early = dir_.file("early.png");
  std::string text;
  ASSERT_EQ(render(all, "", &text), 0) << text;
  // Columns 0-29: GPS time up to 1.29e8.
  ASSERT_EQ(render(early, "--range gps_time=:1.295e8", &text), 0) << text;
  const uint64_t allLit = test::countLitPixels(readPng(all), kOpaqueBlack);
  const uint64_t earlyLit = test::countLitPixels(readPng(early), kOpaqueBlack);
  EXPECT_GT(earlyLit, allLit / 4);
  EXPECT_LT(earlyLit, allLit * 3 / 4);
}

TEST_F(LasFieldsCli, PointSourceIdColorsTheFlightLines) {
  const auto out = dir_.file("lines.png"), report = dir_.file("lines.json");
  std::string text;
  ASSERT_EQ(render(out,
                   "--color-attribute point_source_id --color-map viridis --color-range 1,2 "
                   "--report " +
                       report.string(),
                   &text),
            0)
      << text;
  const nlohmann::json coloring = test::readJsonReport(report).value("coloring", nlohmann::json());
  EXPECT_EQ(coloring, nlohmann::json({{"mode", "attribute"},
                                      {"attribute", "point_source_id"},
                                      {"map", "viridis"},
                                      {"range", {1.0, 2.0}}}));
  // The two lines in the two ends of the map: two colours besides the background.
  std::set<uint32_t> colors;
  for (const uint32_t pixel : readPng(out).pixels) {
    if (pixel != kOpaqueBlack) colors.insert(pixel);
  }
  EXPECT_GE(colors.size(), 2u);
}

TEST_F(LasFieldsCli, ConvertSelectsByAClassFlag) {
  const auto out = dir_.file("synthetic.las"), report = dir_.file("convert.json");
  std::string text;
  ASSERT_EQ(
      test::runCommand(test::pcvExecutable().string() + " convert -q " + las_.string() + " " +
                           out.string() + " --range synthetic=1:1 --report " + report.string(),
                       &text),
      0)
      << text;
  EXPECT_EQ(test::readJsonReport(report)["convert"].value("points", 0ull), 600u);  // 10 rows
}

}  // namespace
}  // namespace pcv
