// `pcv info` and `pcv render` on E57 files end to end: every scan listed, --scan picking one.
#include <gtest/gtest.h>

#include "e57_test_util.hpp"
#include "json_report.hpp"
#include "test_support.hpp"

namespace pcv::test {
namespace {

std::filesystem::path twoScanFile(const TempDir& dir) {
  e57::Scan east = floatScan(4, [](uint64_t r) { return glm::dvec3(double(r), 0, 0); });
  east.name = "east";
  east.translation = {100.0, 0.0, 0.0};
  e57::Scan west = floatScan(6, [](uint64_t r) { return glm::dvec3(0, double(r), 1); });
  west.name = "west";
  const std::filesystem::path path = dir.file("two.e57");
  writeBytes(path, e57::makeE57({east, west}));
  return path;
}

TEST(E57Cli, InfoListsEveryScanAndScanPicksOne) {
  TempDir dir;
  const std::string file = twoScanFile(dir).string();
  const std::string pcv = pcvExecutable().string();
  std::string output;
  const std::string report = dir.file("info.json").string();
  ASSERT_EQ(runCommand(pcv + " info " + file + " --report " + report, &output), 0) << output;
  EXPECT_NE(output.find("format:     E57 1.0, 2 scans, 10 records"), std::string::npos) << output;
  EXPECT_EQ(readJsonReport(report).value("/files/0/points"_json_pointer, 0ull), 10u) << output;
  EXPECT_NE(output.find("scan 0:     \"east\", 4 records"), std::string::npos) << output;
  EXPECT_NE(output.find("pose translation (100, 0, 0)"), std::string::npos) << output;
  EXPECT_NE(output.find("scan 1:     \"west\", 6 records"), std::string::npos) << output;

  ASSERT_EQ(runCommand(pcv + " info --scan 1 " + file + " --report " + report, &output), 0)
      << output;
  EXPECT_NE(output.find("scan 1 of 2"), std::string::npos) << output;
  EXPECT_EQ(readJsonReport(report).value("/files/0/points"_json_pointer, 0ull), 6u) << output;

  EXPECT_NE(runCommand(pcv + " info --scan 2 " + file, &output), 0);
  EXPECT_NE(output.find("scan 2 asked for, but the file has 2 (0 to 1)"), std::string::npos)
      << output;
}

TEST(E57Cli, RenderReadsOnlyTheScanAskedFor) {
  TempDir dir;
  const std::string file = twoScanFile(dir).string();
  std::string output;
  const std::string report = dir.file("render.json").string();
  ASSERT_EQ(runCommand(pcvExecutable().string() + " render --scan 0 " + file +
                           " --backend cpu --size 64x48 --out " + dir.file("east.png").string() +
                           " --report " + report,
                       &output),
            0)
      << output;
  const nlohmann::json figures = readJsonReport(report);
  EXPECT_EQ(figures.value("/files/0/points"_json_pointer, 0ull), 4u) << figures;
  EXPECT_EQ(figures.value("points", 0ull), 4u) << figures;
}

}  // namespace
}  // namespace pcv::test
