// `pcv info` and `pcv render FILE` end to end.
#include <gtest/gtest.h>

#include <cstring>
#include <regex>

#include "e57_test_util.hpp"
#include "io_test_util.hpp"
#include "vpc_test_files.hpp"
#include "pcv/io/png_writer.hpp"
#include "json_report.hpp"
#include "test_support.hpp"

namespace pcv::test {
namespace {

TEST(InfoCli, DescribesFilesAndFailsOnBadOnes) {
  TempDir dir;
  writeText(dir.file("a.xyz"), "500000.5 5000000.25 10 200\n500001 5000001 11 100\n");
  writeText(dir.file("bad.ply"), "ply\nformat ascii 1.0\nend_header\n");
  std::string output;
  const std::string report = dir.file("a.json").string();
  EXPECT_EQ(runCommand(pcvExecutable().string() + " info --stats " + dir.file("a.xyz").string() +
                           " --report " + report,
                       &output),
            0)
      << output;
  const nlohmann::json file =
      readJsonReport(report).value("/files/0"_json_pointer, nlohmann::json());
  ASSERT_TRUE(file.is_object()) << output;
  EXPECT_EQ(file.value("points", 0ull), 2u) << file;
  EXPECT_EQ(file.value("/bounds/min/0"_json_pointer, 0.0), 500000.5) << file;
  EXPECT_EQ(file.value("/bounds/max/1"_json_pointer, 0.0), 5000001.0) << file;
  EXPECT_EQ(file.value("attributes", nlohmann::json()), nlohmann::json({"intensity"})) << file;
  EXPECT_NE(runCommand(pcvExecutable().string() + " info " + dir.file("a.xyz").string() + " " +
                           dir.file("bad.ply").string(),
                       &output),
            0);
  EXPECT_NE(output.find("bad.ply"), std::string::npos) << output;
}

TEST(InfoCli, CoordinatesNearZeroNeverReadMinusZero) {
  TempDir dir;
  writeText(dir.file("z.xyz"), "-0.0001 -0.0002 -0.0003\n0.0001 0.0002 0.0003\n");
  std::string output;
  ASSERT_EQ(
      runCommand(pcvExecutable().string() + " info --stats " + dir.file("z.xyz").string(), &output),
      0)
      << output;
  EXPECT_NE(output.find("min (0.000, 0.000, 0.000)"), std::string::npos) << output;
  EXPECT_EQ(output.find("-0.000"), std::string::npos) << output;
}

TEST(InfoCli, ReadsOnlyTheHeaderUnlessAskedForStatistics) {
  TempDir dir;
  // A LAS header that declares 5 points of 34 bytes where the file holds 3: the header alone
  // answers (and warns), --stats reads the 3 points with a warning, --strict refuses the file.
  std::vector<SyntheticPoint> points = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}};
  LasOptions options;
  options.declaredCount = 5;
  writeBytes(dir.file("short.las"), makeLas(points, options));
  std::string output;
  EXPECT_EQ(runCommand(pcvExecutable().string() + " info " + dir.file("short.las").string() +
                           " --report -",
                       &output),
            0)
      << output;
  // With --report -, standard output is the report alone.
  const nlohmann::json report = nlohmann::json::parse(output, nullptr, false);
  ASSERT_TRUE(report.is_object()) << output;
  const nlohmann::json file = report.value("/files/0"_json_pointer, nlohmann::json::object());
  EXPECT_EQ(file.value("points", 0ull), 5u) << file;
  EXPECT_TRUE(file.value("fromHeader", false)) << file;
  const std::vector<std::string> attributes = file.value("attributes", std::vector<std::string>());
  ASSERT_GE(attributes.size(), 3u) << file;
  EXPECT_EQ(std::vector<std::string>(attributes.begin(), attributes.begin() + 3),
            (std::vector<std::string>{"intensity", "classification", "return_number"}));
  EXPECT_EQ(file.value("missingPoints", 0ull), 2u) << file;
  EXPECT_EQ(file.value("warnings", nlohmann::json::array()).size(), 1u) << file;
  const std::string statsReport = dir.file("stats.json").string();
  EXPECT_EQ(runCommand(pcvExecutable().string() + " info --stats " +
                           dir.file("short.las").string() + " --report " + statsReport,
                       &output),
            0)
      << output;
  const nlohmann::json read =
      readJsonReport(statsReport).value("/files/0"_json_pointer, nlohmann::json());
  EXPECT_EQ(read.value("points", 0ull), 3u) << read;
  EXPECT_EQ(read.value("missingPoints", 0ull), 2u) << read;
  EXPECT_FALSE(read.value("warnings", nlohmann::json::array()).empty()) << read;
  for (const char* stats : {"", " --stats"}) {
    EXPECT_EQ(runCommand(pcvExecutable().string() + " info --strict" + stats + " " +
                             dir.file("short.las").string(),
                         &output),
              1)
        << stats << "\n"
        << output;
    EXPECT_NE(output.find("truncated"), std::string::npos) << output;
  }
}

std::string placeholderBoundsXml() {
  std::string xml = "<cartesianBounds type=\"Structure\">";
  for (const char* axis : {"x", "y", "z"}) {
    xml += std::string("<") + axis + "Minimum type=\"Float\">-1.7976931348623157e+308</" + axis +
           "Minimum><" + axis + "Maximum type=\"Float\">1.7976931348623157e+308</" + axis +
           "Maximum>";
  }
  return xml + "</cartesianBounds>";
}

// E57 writers without bounds state +-DBL_MAX: the header declares no bounds then.
TEST(InfoCli, E57PlaceholderBoundsAreNoBounds) {
  TempDir dir;
  e57::Scan scan = floatScan(3, [](uint64_t r) { return glm::dvec3(double(r), 1.0, 2.0); });
  scan.extraXml = placeholderBoundsXml();
  writeBytes(dir.file("p.e57"), e57::makeE57({scan}));
  EXPECT_TRUE(describePointFile(dir.file("p.e57")).worldBounds.empty());
  scan.extraXml =
      "<cartesianBounds type=\"Structure\"><xMinimum type=\"Float\">-1</xMinimum><xMaximum "
      "type=\"Float\">3</xMaximum><yMinimum type=\"Float\"/><yMaximum type=\"Float\">1</yMaximum>"
      "<zMinimum type=\"Float\"/><zMaximum type=\"Float\">2</zMaximum></cartesianBounds>";
  writeBytes(dir.file("b.e57"), e57::makeE57({scan}));
  const FileSummary bounded = describePointFile(dir.file("b.e57"));
  ASSERT_FALSE(bounded.worldBounds.empty());
  EXPECT_EQ(bounded.worldBounds.min.x, -1.0);
  EXPECT_EQ(bounded.worldBounds.max.z, 2.0);
}

// Whatever a header states, `pcv info` never prints a coordinate as hundreds of digits.
TEST(InfoCli, AbsurdHeaderBoundsPrintShort) {
  TempDir dir;
  std::vector<uint8_t> las = makeLas({{1, 2, 3}, {4, 5, 6}});
  for (int i = 0; i < 6; ++i) {  // max x, min x, max y, min y, max z, min z
    const double value = (i % 2 == 0 ? 1.0 : -1.0) * 1.7976931348623157e308;
    std::memcpy(las.data() + 179 + 8 * i, &value, 8);
  }
  writeBytes(dir.file("huge.las"), las);
  e57::Scan scan = floatScan(3, [](uint64_t r) { return glm::dvec3(double(r), 1.0, 2.0); });
  scan.extraXml = placeholderBoundsXml();
  writeBytes(dir.file("p.e57"), e57::makeE57({scan}));
  for (const char* name : {"huge.las", "p.e57"}) {
    SCOPED_TRACE(name);
    std::string output;
    ASSERT_EQ(runCommand(pcvExecutable().string() + " info " + dir.file(name).string(), &output), 0)
        << output;
    EXPECT_FALSE(std::regex_search(output, std::regex("[0-9]{40}"))) << output;
    EXPECT_LT(output.size(), 2000u) << output;
  }
}

TEST(RenderCli, RendersAFileFramedAndColored) {
  TempDir dir;
  std::vector<SyntheticPoint> points;
  for (int i = 0; i < 1000; ++i) {
    SyntheticPoint p{500000.0 + i % 40, 5000000.0 + i / 40, 100.0 + (i % 7)};
    p.classification = uint8_t(2 + i % 4);
    points.push_back(p);
  }
  writeBytes(dir.file("c.las"), makeLas(points));
  std::string output;
  const std::string png = dir.file("c.png").string();
  ASSERT_EQ(runCommand(pcvExecutable().string() + " render " + dir.file("c.las").string() +
                           " --backend cpu --color classification --size 160x90 --out " + png,
                       &output),
            0)
      << output;
  const Image image = readPng(png);
  EXPECT_GT(countLitPixels(image, image.pixels[0]), 100u) << "the framed cloud fills the view";
}

/// The lit pixels' box: columns and rows (row 0 at the bottom) of pixels not `background`.
struct LitBox {
  int left = INT32_MAX, right = -1, bottom = INT32_MAX, top = -1;
};
LitBox litBox(const Image& image, uint32_t background) {
  LitBox box;
  for (int y = 0; y < image.height; ++y) {
    for (int x = 0; x < image.width; ++x) {
      if (image.at(x, y) == background) continue;
      box = {std::min(box.left, x), std::max(box.right, x), std::min(box.bottom, y),
             std::max(box.top, y)};
    }
  }
  return box;
}

TEST(RenderCli, TheDefaultViewCentresTheDataAndFillsTheImage) {
  TempDir dir;
  // A tile as LiDAR gives it: flat ground with a bare corner towards the camera and a row of
  // trees along the far edge, whose box is mostly empty air.
  std::string text;
  for (int i = 0; i <= 120; ++i) {
    for (int j = 0; j <= 60; ++j) {
      const double x = 500000.0 + i * 10.0, y = 5000000.0 + j * 10.0;
      if (i < 40 && j < 25) continue;
      text += std::to_string(x) + " " + std::to_string(y) + " " +
              std::to_string(100 + (i + j) % 3) + "\n";
      if (j >= 57 && i % 3 == 0) {
        text +=
            std::to_string(x) + " " + std::to_string(y) + " " + std::to_string(130 + i % 40) + "\n";
      }
    }
  }
  writeText(dir.file("tile.xyz"), text);
  std::string output;
  const std::string png = dir.file("tile.png").string();
  ASSERT_EQ(runCommand(pcvExecutable().string() + " render " + dir.file("tile.xyz").string() +
                           " --backend cpu --edl off --size 320x180 --out " + png,
                       &output),
            0)
      << output;
  const Image image = readPng(png);
  const LitBox lit = litBox(image, kOpaqueBlack);
  ASSERT_GE(lit.right, 0) << "nothing drawn";
  // Centred within a few pixels (the margin around the data is the same on either side) ...
  EXPECT_NEAR(lit.left, image.width - 1 - lit.right, 0.05 * image.width);
  EXPECT_NEAR(lit.bottom, image.height - 1 - lit.top, 0.05 * image.height);
  // ... and most of the image in both directions (fitted to the box, the ground took the top
  // half, the bottom 40 % stayed empty).
  EXPECT_GT(lit.right - lit.left, 0.8 * image.width);
  EXPECT_GT(lit.top - lit.bottom, 0.7 * image.height);
}

TEST(InfoCli, NamesTheCoordinateSystemAndItsUnits) {
  TempDir dir;
  writeTile(dir.file("utm.las"), 10, {500000, 5000000, 0}, {500100, 5000100, 10},
            {wktRecord(kUtm33Wkt)});
  writeText(dir.file("plain.xyz"), "1 2 3\n");
  std::string output;
  ASSERT_EQ(runCommand(pcvExecutable().string() + " info " + dir.file("utm.las").string() + " " +
                           dir.file("plain.xyz").string() + " --report -",
                       &output),
            0)
      << output;
  const nlohmann::json report = nlohmann::json::parse(output, nullptr, false);
  ASSERT_TRUE(report.is_object()) << output;
  const nlohmann::json crs = report.value("/files/0/crs"_json_pointer, nlohmann::json());
  ASSERT_TRUE(crs.is_object()) << report;
  EXPECT_EQ(crs.value("name", ""), "WGS 84 / UTM zone 33N") << crs;
  EXPECT_EQ(crs.value("epsg", 0), 32633) << crs;
  EXPECT_EQ(crs.value("/horizontalUnit/name"_json_pointer, ""), "metre") << crs;
  EXPECT_EQ(crs.value("/horizontalUnit/symbol"_json_pointer, ""), "m") << crs;
  EXPECT_EQ(crs.value("/horizontalUnit/metres"_json_pointer, 0.0), 1.0) << crs;
  EXPECT_TRUE(crs["verticalUnit"].is_null()) << "the file states no vertical CRS";
  EXPECT_TRUE(report.value("/files/1/crs"_json_pointer, nlohmann::json(1)).is_null())
      << "a text file states none";
}

TEST(InfoCli, GeoKeyUnitsOfAFileInUsFeet) {
  TempDir dir;
  // ProjectedCSTypeGeoKey user-defined, ProjLinearUnitsGeoKey US survey foot, VerticalUnitsGeoKey
  // the international foot.
  const uint16_t words[] = {1, 1, 0, 3, 3072, 0, 1, 32767, 3076, 0, 1, 9003, 4099, 0, 1, 9002};
  LasVariableRecord keys{
      .userId = "LASF_Projection", .recordId = 34735, .description = "GeoKeyDirectoryTag"};
  keys.payload.resize(sizeof words);
  std::memcpy(keys.payload.data(), words, sizeof words);
  writeTile(dir.file("feet.las"), 10, {0, 0, 0}, {100, 100, 10}, {keys});
  std::string output;
  ASSERT_EQ(runCommand(
                pcvExecutable().string() + " info " + dir.file("feet.las").string() + " --report -",
                &output),
            0)
      << output;
  const nlohmann::json report = nlohmann::json::parse(output, nullptr, false);
  ASSERT_TRUE(report.is_object()) << output;
  const nlohmann::json crs = report.value("/files/0/crs"_json_pointer, nlohmann::json());
  EXPECT_EQ(crs.value("/horizontalUnit/name"_json_pointer, ""), "US survey foot") << crs;
  EXPECT_NEAR(crs.value("/horizontalUnit/metres"_json_pointer, 0.0), 0.3048006096, 1e-9) << crs;
  EXPECT_EQ(crs.value("/verticalUnit/name"_json_pointer, ""), "foot") << crs;
}

}  // namespace
}  // namespace pcv::test
