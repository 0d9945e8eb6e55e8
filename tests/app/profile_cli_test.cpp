// `pcv profile` end to end: CSV rows against a reference computed here, LAS and PNG outputs,
// --report figures, the PNG figure (axes, numbers, title, point size from the density), and bad
// input refused with a non-zero exit.
#include <filesystem>
#include <fstream>
#include <random>

#include "io_test_util.hpp"
#include "json_report.hpp"
#include "pcv/core/image_size.hpp"
#include "pcv/core/profile_corridor.hpp"
#include "pcv/io/png_writer.hpp"
#include "pcv/io/point_cloud_reader.hpp"
#include "pcv/session/cloud_writer.hpp"
#include "pcv/session/profile_figure.hpp"
#include "test_support.hpp"
#include "vpc_test_files.hpp"

namespace pcv {
namespace {

class ProfileCli : public ::testing::Test {
 protected:
  void SetUp() override {
    auto cloud = std::make_shared<PointCloud>();
    cloud->origin = glm::dvec3(500000.0, 5000000.0, 0.0);
    std::mt19937 random(1);
    std::uniform_int_distribution<int> quarter(0, 80);
    for (int i = 0; i < 3000; ++i) {
      cloud->points.push_back(
          {quarter(random) * 0.25f, quarter(random) * 0.25f, float(i % 11), packRgba(9, 9, 9)});
    }
    input_ = dir_.file("in.las");
    writePointCloud(cloud, input_);
    // What the file holds, read back (the LAS grid may move points by less than its scale).
    const PointCloud read = readPointCloud(input_);
    for (const Point& p : read.points) world_.push_back(read.origin + glm::dvec3(p.x, p.y, p.z));
  }
  int run(const std::string& arguments, std::string* text) {
    return test::runCommand(test::pcvExecutable().string() + " profile " + arguments, text);
  }
  test::TempDir dir_;
  std::filesystem::path input_;
  std::vector<glm::dvec3> world_;
  const std::string line_ = "500002,5000003,500018,5000003,500018,5000015";
};

TEST_F(ProfileCli, CsvRowsAreTheCorridorPoints) {
  const auto csv = dir_.file("p.csv"), report = dir_.file("p.json");
  std::string text;
  ASSERT_EQ(run(input_.string() + " --line " + line_ + " --width 3 --out " + csv.string() +
                    " --report " + report.string(),
                &text),
            0)
      << text;
  // Reference: the two axis-aligned rectangles of the line, ends included.
  uint64_t expected = 0;
  for (const glm::dvec3& p : world_) {
    const double x = p.x - 500000.0, y = p.y - 5000000.0;
    expected += (x >= 2.0 && x <= 18.0 && std::abs(y - 3.0) <= 1.5) ||
                (y >= 3.0 && y <= 15.0 && std::abs(x - 18.0) <= 1.5);
  }
  std::ifstream in(csv);
  std::string header, row;
  ASSERT_TRUE(std::getline(in, header));
  EXPECT_EQ(header.rfind("x,y,z,distance", 0), 0u) << header;
  uint64_t rows = 0;
  double previous = -1.0;
  while (std::getline(in, row)) {
    ++rows;
    const double x = std::strtod(row.c_str(), nullptr);
    EXPECT_GT(x, 500000.0);
    const double distance =
        std::strtod(row.c_str() + row.find(',', row.find(',', row.find(',') + 1) + 1) + 1, nullptr);
    EXPECT_GE(distance, previous);  // ordered along the line
    previous = distance;
  }
  EXPECT_EQ(rows, expected);
  EXPECT_GT(expected, 100u);
  const nlohmann::json figures = test::readJsonReport(report);
  EXPECT_EQ(figures.value("points", 0ull), expected) << figures;
  EXPECT_EQ(figures.value("length", 0.0), 28.0) << figures;
}

TEST_F(ProfileCli, LasAndPngAreWritten) {
  const auto las = dir_.file("p.las"), png = dir_.file("p.png");
  std::string text;
  ASSERT_EQ(run(input_.string() + " --line " + line_ + " --width 3 --out " + las.string(), &text),
            0)
      << text;
  const PointCloud profile = readPointCloud(las);
  EXPECT_GT(profile.size(), 100u);
  const ProfileCorridor corridor(ProfileCorridor::parseLine(line_), 3.0);
  for (const Point& p : profile.points) {
    const glm::dvec3 w = profile.origin + glm::dvec3(p.x, p.y, p.z);
    EXPECT_TRUE(corridor.meets(Box3d{w - 1e-3, w + 1e-3}));
  }
  ASSERT_EQ(run(input_.string() + " --backend cpu --line " + line_ +
                    " --width 3 --size 300x120 --out " + png.string(),
                &text),
            0)
      << text;
  const Image image = readPng(png);
  EXPECT_EQ(image.width, 300);
  EXPECT_EQ(image.height, 120);
  EXPECT_GT(test::countLitPixels(image, kOpaqueBlack), 50u);
}

TEST_F(ProfileCli, BadInputIsRefused) {
  const std::string out = " --out " + dir_.file("bad.csv").string();
  std::string text;
  EXPECT_NE(run(input_.string() + " --line 1,2 --width 3" + out, &text), 0);
  EXPECT_NE(text.find("two points"), std::string::npos) << text;
  EXPECT_NE(run(input_.string() + " --line " + line_ + " --width 0" + out, &text), 0);
  EXPECT_NE(run(input_.string() + " --line " + line_ + " --width -2" + out, &text), 0);
  EXPECT_NE(run(input_.string() + " --line 1,2,3 --width 3" + out, &text), 0);
  EXPECT_NE(run(input_.string() + " --line " + line_ + " --width 3 --out p.ply", &text), 0);
  EXPECT_NE(text.find(".ply"), std::string::npos) << text;
  EXPECT_NE(run(dir_.file("missing.las").string() + " --line " + line_ + " --width 3" + out, &text),
            0);
  EXPECT_FALSE(std::filesystem::exists(dir_.file("bad.csv")));
}

TEST_F(ProfileCli, CsvAndReportSayTheUnitOfTheTile) {
  // A tile in US survey feet (GeoTIFF ProjLinearUnitsGeoKey 9003), heights in metres (9001).
  const uint16_t words[] = {1, 1, 0, 3, 3072, 0, 1, 32767, 3076, 0, 1, 9003, 4099, 0, 1, 9001};
  LasVariableRecord keys{
      .userId = "LASF_Projection", .recordId = 34735, .description = "GeoKeyDirectoryTag"};
  keys.payload.resize(sizeof words);
  std::memcpy(keys.payload.data(), words, sizeof words);
  const auto tile = dir_.file("feet.las");
  test::writeTile(tile, 200, {0, 0, 0}, {100, 100, 10}, {keys});
  const auto csv = dir_.file("feet.csv"), json = dir_.file("feet.json");
  std::string text;
  ASSERT_EQ(run(tile.string() + " --line 0,0,100,100 --width 2 --out " + csv.string() +
                    " --report " + json.string(),
                &text),
            0)
      << text;
  const nlohmann::json report = test::readJsonReport(json);
  EXPECT_EQ(report.value("unit", ""), "ftUS") << text;
  EXPECT_EQ(report.value("verticalUnit", ""), "m") << text;
  std::ifstream in(csv);
  std::string header;
  ASSERT_TRUE(std::getline(in, header));
  EXPECT_EQ(header.rfind("x (ftUS),y (ftUS),z (m),distance (ftUS)", 0), 0u) << header;
}

/// Pixels other than `background` in the rectangle [x0, x1) x [y0, y1) (row 0 at the bottom).
uint64_t countOther(const Image& image, int x0, int y0, int x1, int y1, uint32_t background) {
  uint64_t count = 0;
  for (int y = std::max(y0, 0); y < std::min(y1, image.height); ++y) {
    for (int x = std::max(x0, 0); x < std::min(x1, image.width); ++x)
      count += image.at(x, y) != background;
  }
  return count;
}

TEST_F(ProfileCli, PngHasAxesNumbersAndTitle) {
  const auto png = dir_.file("axes.png");
  std::string text;
  for (const char* size : {"300x120", "1600x600"}) {
    ASSERT_EQ(run(input_.string() + " --backend cpu --line " + line_ + " --width 3 --size " + size +
                      " --out " + png.string(),
                  &text),
              0)
        << text;
    const Image image = readPng(png);
    const ImageSize expected = parseImageSize(size);
    // --size is the whole figure, margins included.
    ASSERT_EQ(image.width, expected.width);
    ASSERT_EQ(image.height, expected.height);
    const ProfileFigureLayout layout = profileFigureLayout(image.width, image.height);
    ASSERT_GT(layout.left, 0) << size;
    const int s = layout.glyphScale;
    // The elevation axis: the column left of the data, ink all along the data's height.
    for (int y = layout.bottom; y < layout.bottom + layout.dataHeight(); ++y) {
      ASSERT_EQ(image.at(layout.left - 1, y), kFigureInkRgba) << size << " y " << y;
    }
    // The distance axis: the row under the data, ink all across.
    for (int x = layout.left; x < layout.left + layout.dataWidth(); ++x) {
      ASSERT_EQ(image.at(x, layout.bottom - 1), kFigureInkRgba) << size << " x " << x;
    }
    // Numbers left of the ticks and under them, the title above the data: ink in the margins,
    // away from the axes and their 4-cell ticks.
    const int clear = s + 4 * s + 1;
    EXPECT_GT(countOther(image, 0, layout.bottom, layout.left - clear,
                         layout.bottom + layout.dataHeight(), kFigureMarginRgba),
              20u)
        << size;
    EXPECT_GT(countOther(image, layout.left, 0, layout.left + layout.dataWidth(),
                         layout.bottom - clear, kFigureMarginRgba),
              40u)
        << size;
    EXPECT_GT(countOther(image, 0, layout.bottom + layout.dataHeight(), image.width, image.height,
                         kFigureMarginRgba),
              40u)
        << size;
    // The margins are the margin colour except for that ink.
    EXPECT_EQ(image.at(image.width - 1, 0), kFigureMarginRgba);
  }
}

TEST_F(ProfileCli, SparseCorridorIsDrawnWithLargerPoints) {
  // About 80 points scattered in a 4-unit corridor across a 100 x 100 tile, heights 0 .. 20: at
  // one pixel each, some 80 pixels lit in a data area of a quarter of a million.
  auto cloud = std::make_shared<PointCloud>();
  std::mt19937 random(7);
  std::uniform_real_distribution<float> across(0.0f, 100.0f), height(0.0f, 20.0f);
  for (int i = 0; i < 2000; ++i) {
    cloud->points.push_back({across(random), across(random), height(random), packRgba(9, 9, 9)});
  }
  const auto tile = dir_.file("sparse.las");
  writePointCloud(cloud, tile);
  const auto one = dir_.file("one.png"), chosen = dir_.file("chosen.png");
  const std::string common =
      tile.string() + " --backend cpu --line 0,50,100,50 --width 4 --size 1000x400 --out ";
  std::string text;
  const auto oneReport = dir_.file("one.json"), chosenReport = dir_.file("chosen.json");
  ASSERT_EQ(run(common + one.string() + " --point-size 1 --report " + oneReport.string(), &text), 0)
      << text;
  ASSERT_EQ(run(common + chosen.string() + " --report " + chosenReport.string(), &text), 0) << text;
  EXPECT_EQ(test::readJsonReport(oneReport).value("pointSizePx", 0), 1);
  EXPECT_GT(test::readJsonReport(chosenReport).value("pointSizePx", 0), 1);
  const ProfileFigureLayout layout = profileFigureLayout(1000, 400);
  const auto litInData = [&](const Image& image) {
    return countOther(image, layout.left, layout.bottom, layout.left + layout.dataWidth(),
                      layout.bottom + layout.dataHeight(), kOpaqueBlack);
  };
  const uint64_t before = litInData(readPng(one)), after = litInData(readPng(chosen));
  EXPECT_GT(before, 20u);
  EXPECT_GE(after, 10 * before) << before << " lit pixels at 1 px, " << after << " chosen";
}

}  // namespace
}  // namespace pcv
