// --clip-polygon end to end: `pcv render` draws only the points over the polygon, `pcv convert`
// writes exactly those (against a point-in-polygon made here in doubles), the flags round-trip
// through "Copy view", and bad polygons end with the error status before anything is written.
#include <gtest/gtest.h>

#include <filesystem>

#include "grid_las_cli.hpp"
#include "json_report.hpp"
#include "options/clip_options.hpp"
#include "pcv/core/error.hpp"
#include "pcv/io/png_writer.hpp"
#include "polygon_reference.hpp"

namespace pcv {
namespace {

constexpr int kErrorStatus = 1;  // pcv::Error: a bad flag value, said on stderr

/// A concave quadrilateral over the grid below (world x, y), as typed and as numbers.
constexpr const char* kPolygonFlag = "1010.5,2003.25,1050.5,2010.5,1030.5,2020.5,1045.5,2050.5";
const std::vector<glm::dvec2> kPolygon = {
    {1010.5, 2003.25}, {1050.5, 2010.5}, {1030.5, 2020.5}, {1045.5, 2050.5}};

bool insidePolygon(double x, double y) {
  return test::insidePolygon(kPolygon, x, y);
}

class PolygonCli : public test::GridLasCli {
 protected:
  void SetUp() override {
    makeGrid("pcv_polygon_cli", [this](int i, int j, test::SyntheticPoint& point) {
      point.classification = uint8_t(i % 2 ? 2 : 6);
      expectedInside_ += insidePolygon(point.x, point.y);
    });
  }
  uint64_t convertedPoints(const std::string& flags) {
    const auto out = dir_ / "out.las", report = dir_ / "report.json";
    std::string text;
    EXPECT_EQ(run("convert -q --overwrite " + las_.string() + " " + out.string() + " " + flags +
                      " --report " + report.string(),
                  &text),
              0)
        << text;
    return test::readJsonReport(report)["convert"].value("points", 0ull);
  }
  uint64_t expectedInside_ = 0;
};

TEST_F(PolygonCli, ConvertWritesExactlyThePointsOverThePolygon) {
  ASSERT_GT(expectedInside_, 300u);
  ASSERT_LT(expectedInside_, 3600u / 2);
  EXPECT_EQ(convertedPoints(std::string("--clip-polygon ") + kPolygonFlag), expectedInside_);
  EXPECT_EQ(convertedPoints(std::string("--clip-polygon ") + kPolygonFlag + " --clip-keep outside"),
            3600u - expectedInside_);
}

TEST_F(PolygonCli, RenderDrawsOnlyThePointsOverThePolygon) {
  const auto all = dir_ / "all.png", clipped = dir_ / "clipped.png", outside = dir_ / "out.png";
  const std::string base = "render --backend cpu " + las_.string() +
                           " --size 400x400 --edl off --ortho plan --out ";
  std::string text;
  ASSERT_EQ(run(base + all.string(), &text), 0) << text;
  ASSERT_EQ(run(base + clipped.string() + " --clip-polygon " + kPolygonFlag, &text), 0) << text;
  ASSERT_EQ(run(base + outside.string() + " --clip-polygon " + kPolygonFlag +
                    " --clip-keep outside",
                &text),
            0)
      << text;
  const uint64_t allLit = test::countLitPixels(readPng(all), kOpaqueBlack);
  const uint64_t inLit = test::countLitPixels(readPng(clipped), kOpaqueBlack);
  const uint64_t outLit = test::countLitPixels(readPng(outside), kOpaqueBlack);
  EXPECT_GT(inLit, 0u);
  EXPECT_GT(outLit, 0u);
  EXPECT_EQ(inLit + outLit, allLit);  // each point's pixels drawn in exactly one of the two
  const double share = double(expectedInside_) / 3600.0;
  EXPECT_NEAR(double(inLit) / double(allLit), share, 0.05);
}

TEST_F(PolygonCli, BadPolygonsEndWithTheErrorStatus) {
  const auto out = dir_ / "bad.png", converted = dir_ / "bad.las";
  for (const char* polygon : {"1,2,3,4", "1,2,3,4,5", "1,2,3,x,5,6", "1,2,,4,5,6", "nan,1,2,3,4,5",
                              "1,2,3,4,5,6,"}) {
    std::string text;
    EXPECT_EQ(run("render --backend cpu " + las_.string() + " --size 64x64 --out " + out.string() +
                      " --clip-polygon '" + polygon + "'",
                  &text),
              kErrorStatus)
        << polygon << ": " << text;
    EXPECT_NE(text.find("--clip-polygon"), std::string::npos) << text;
    EXPECT_EQ(run("convert -q " + las_.string() + " " + converted.string() + " --clip-polygon '" +
                      polygon + "'",
                  &text),
              kErrorStatus)
        << polygon << ": " << text;
  }
  EXPECT_FALSE(std::filesystem::exists(out));
  EXPECT_FALSE(std::filesystem::exists(converted));
}

TEST(PolygonFlags, PlanPolygonsRoundTripThroughTheFlags) {
  app::ClipFlags flags;
  flags.polygon = kPolygonFlag;
  flags.keep = "outside";
  const ClipSettings clip = app::clipSettingsFrom(flags);
  ASSERT_TRUE(clip.polygon.has_value());
  EXPECT_FALSE(clip.polygon->keepInside());
  EXPECT_EQ(clip.polygon->planVertices(), kPolygon);
  EXPECT_EQ(app::clipArguments(clip),
            " --clip-polygon 1010.5,2003.25,1050.5,2010.5,1030.5,2020.5,1045.5,2050.5"
            " --clip-keep outside");
  flags.polygon = "1,2,3,4,5";
  EXPECT_THROW(app::clipSettingsFrom(flags), InputError);
}

}  // namespace
}  // namespace pcv
