// The headless pcv's answers to a newcomer's mistakes, end to end through the executable: a
// mistyped command, no display, option errors, output names it cannot write, a profile line that
// misses the data, files cut short; checked by exit status, --report and the files' bytes.
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "io_test_util.hpp"
#include "json_report.hpp"
#include "synthetic_tiles.hpp"
#include "test_support.hpp"

namespace pcv {
namespace {

int pcv(const std::string& arguments, std::string* output) {
  return test::runCommand(test::pcvExecutable().string() + " " + arguments, output);
}

std::string firstBytes(const std::filesystem::path& path, size_t count) {
  std::ifstream in(path, std::ios::binary);
  std::string bytes(count, '\0');
  in.read(bytes.data(), std::streamsize(count));
  bytes.resize(size_t(in.gcount()));
  return bytes;
}

/// Bytes of each record of lineLas (point format 2).
constexpr size_t kLineRecordBytes = 26;

/// A small LAS file of `count` points on a line from (1000, 2000, 10) along x, its header bounds
/// stated (profiles skip tiles whose bounds miss the line).
std::vector<uint8_t> lineLas(int count) {
  std::vector<test::SyntheticPoint> points;
  for (int i = 0; i < count; ++i) {
    // Coloured: all-black colours would be warned of too.
    points.push_back({.x = 1000.0 + i,
                      .y = 2000.0,
                      .z = 10.0 + i % 3,
                      .red = 40000,
                      .green = 20000,
                      .blue = 10000});
  }
  return test::lasWithBounds(points);
}

TEST(FirstHourCli, AMistypedCommandIsNamedWithTheClosestAndExits2) {
  test::TempDir dir;
  std::string output;
  EXPECT_EQ(pcv("rendr " + dir.file("f.las").string(), &output), 2) << output;
  EXPECT_NE(output.find("'render'"), std::string::npos) << output;
  EXPECT_EQ(pcv("inf", &output), 2) << output;
  EXPECT_EQ(pcv("nothing-like-a-command", &output), 2) << output;
}

TEST(FirstHourCli, WithoutADisplayTheViewerSaysHowToRenderHeadless) {
  if (!std::filesystem::exists(test::pcvExecutable().parent_path() / "pcv-view")) {
    GTEST_SKIP() << "pcv was built without the viewer";
  }
  test::TempDir dir;
  test::writeBytes(dir.file("a.las"), lineLas(4));
  const std::string noDisplay = "env -u DISPLAY -u WAYLAND_DISPLAY ";
  for (const std::string& arguments : {std::string(), " " + dir.file("a.las").string(),
                                       " view --frames 1 " + dir.file("a.las").string()}) {
    std::string output;
    EXPECT_EQ(test::runCommand(noDisplay + test::pcvExecutable().string() + arguments, &output), 3)
        << arguments << "\n"
        << output;
  }
}

TEST(FirstHourCli, OptionErrorsExit2) {
  std::string output;
  for (const char* arguments : {"render --no-such-option", "render --point-size many",
                                "render --gl glx", "info", "render --size"}) {
    EXPECT_EQ(pcv(arguments, &output), 2) << arguments << "\n" << output;
  }
  EXPECT_EQ(pcv("render --help", &output), 0) << output;
  EXPECT_EQ(pcv("--version", &output), 0) << output;
}

TEST(FirstHourCli, ColorIsSpelledEitherWay) {
  test::TempDir dir;
  test::writeBytes(dir.file("a.las"), lineLas(50));
  const std::string report = dir.file("r.json").string();
  std::string output;
  ASSERT_EQ(pcv("render " + dir.file("a.las").string() +
                    " --backend cpu --size 32x24 --colour-map grey --colour elevation --out " +
                    dir.file("a.png").string() + " --report " + report,
                &output),
            0)
      << output;
  const nlohmann::json coloring = test::readJsonReport(report)["coloring"];
  EXPECT_EQ(coloring.value("mode", ""), "elevation") << coloring;
  EXPECT_EQ(coloring.value("map", ""), "grey") << coloring;
}

TEST(FirstHourCli, RenderWritesJpegAndRefusesNamesItCannotWrite) {
  test::TempDir dir;
  const std::string render = "render --backend cpu --points 2000 --size 32x24 --out ";
  std::string output;
  ASSERT_EQ(pcv(render + dir.file("a.jpg").string(), &output), 0) << output;
  EXPECT_EQ(firstBytes(dir.file("a.jpg"), 3), "\xFF\xD8\xFF") << "a JPEG's start of image";
  ASSERT_EQ(pcv(render + dir.file("b.JPEG").string(), &output), 0) << output;
  EXPECT_EQ(firstBytes(dir.file("b.JPEG"), 3), "\xFF\xD8\xFF");
  ASSERT_EQ(pcv(render + dir.file("c.png").string(), &output), 0) << output;
  EXPECT_EQ(firstBytes(dir.file("c.png"), 4), "\x89PNG");
  // A video needs a camera path; other extensions are no image pcv writes.
  for (const char* name : {"movie.mp4", "image.bmp", "image"}) {
    EXPECT_EQ(pcv(render + dir.file(name).string(), &output), 1) << name << "\n" << output;
    EXPECT_FALSE(std::filesystem::exists(dir.file(name))) << name;
  }
}

TEST(FirstHourCli, TheOutputIsCheckedBeforeTheInputsAreRead) {
  test::TempDir dir;
  // The input does not exist either: the error names the output, checked first.
  const std::string out = dir.file("no-such-folder").string() + "/a.png";
  std::string output;
  EXPECT_EQ(
      pcv("render --backend cpu " + dir.file("absent.las").string() + " --out " + out, &output), 1)
      << output;
  EXPECT_NE(output.find(out), std::string::npos) << output;
  EXPECT_EQ(output.find("absent.las"), std::string::npos) << output;
  // A folder given as the output.
  EXPECT_EQ(pcv("render --backend cpu --points 100 --out " + dir.file("").string(), &output), 1)
      << output;
}

TEST(FirstHourCli, AProfileLineThatMissesTheDataIsWarnedOfAndReported) {
  test::TempDir dir;
  test::writeBytes(dir.file("a.las"), lineLas(50));
  const std::string report = dir.file("r.json").string();
  std::string output;
  ASSERT_EQ(
      pcv("profile " + dir.file("a.las").string() + " --line 5000,5000,5010,5000 --width 2 --out " +
              dir.file("p.csv").string() + " --report " + report,
          &output),
      0)
      << output;
  const nlohmann::json figures = test::readJsonReport(report);
  EXPECT_EQ(figures.value("points", 1), 0) << figures;
  EXPECT_EQ(figures.value("warnings", nlohmann::json::array()).size(), 1u) << figures;
  // A line through the data: no warning.
  ASSERT_EQ(
      pcv("profile " + dir.file("a.las").string() + " --line 1000,2000,1010,2000 --width 2 --out " +
              dir.file("q.csv").string() + " --report " + report,
          &output),
      0)
      << output;
  const nlohmann::json hit = test::readJsonReport(report);
  EXPECT_GT(hit.value("points", 0), 0) << hit;
  EXPECT_TRUE(hit.value("warnings", nlohmann::json()).empty()) << hit;
}

TEST(FirstHourCli, ATruncatedLasFileIsReadAsFarAsItGoesUnlessStrict) {
  test::TempDir dir;
  std::vector<uint8_t> bytes = lineLas(50);
  bytes.resize(bytes.size() - 10 * kLineRecordBytes - 7);  // 10 records and part of one cut off
  const std::string file = dir.file("cut.las").string();
  test::writeBytes(file, bytes);
  const std::string report = dir.file("r.json").string();
  std::string output;
  ASSERT_EQ(pcv("render --backend cpu --size 32x24 " + file + " --out " +
                    dir.file("a.png").string() + " --report " + report,
                &output),
            0)
      << output;
  EXPECT_EQ(test::readJsonReport(report).value("/files/0/points"_json_pointer, 0), 39) << output;
  ASSERT_EQ(pcv("profile " + file + " --line 1000,2000,1100,2000 --width 2 --out " +
                    dir.file("p.csv").string() + " --report " + report,
                &output),
            0)
      << output;
  const nlohmann::json profile = test::readJsonReport(report);
  EXPECT_EQ(profile.value("points", 0), 39) << profile;
  EXPECT_EQ(profile.value("warnings", nlohmann::json::array()).size(), 1u) << profile;
  for (const std::string& command :
       {"render --backend cpu --size 32x24 " + file + " --out " + dir.file("b.png").string(),
        "profile " + file + " --line 1000,2000,1100,2000 --width 2 --out " +
            dir.file("q.csv").string(),
        "info " + file, "info --stats " + file}) {
    EXPECT_EQ(pcv(command + " --strict", &output), 1) << command << "\n" << output;
  }
  EXPECT_FALSE(std::filesystem::exists(dir.file("b.png")));
  EXPECT_FALSE(std::filesystem::exists(dir.file("q.csv")));
}

TEST(FirstHourCli, ATruncatedLazFileKeepsItsWholeChunksUnlessStrict) {
  test::TempDir dir;
  std::string output;
  // Point format 7: layered chunks, which state their sizes; the chunk table is at the end.
  const std::string whole = dir.file("whole.laz").string();
  ASSERT_EQ(pcv("convert -q --points 20000 --seed 2 --point-format 7 --chunk-size 1000 " + whole,
                &output),
            0)
      << output;
  const std::string file = dir.file("cut.laz").string();
  std::filesystem::copy_file(whole, file);
  std::filesystem::resize_file(file, std::filesystem::file_size(whole) * 6 / 10);
  const std::string report = dir.file("r.json").string();
  ASSERT_EQ(pcv("info " + file + " --report " + report, &output), 0) << output;
  const nlohmann::json header =
      test::readJsonReport(report).value("/files/0"_json_pointer, nlohmann::json());
  const uint64_t missing = header.value("missingPoints", 0ull);
  EXPECT_GT(missing, 0u) << header;
  EXPECT_LT(missing, 20000u) << header;
  EXPECT_FALSE(header.value("warnings", nlohmann::json::array()).empty()) << header;
  ASSERT_EQ(pcv("info --stats " + file + " --report " + report, &output), 0) << output;
  const nlohmann::json read =
      test::readJsonReport(report).value("/files/0"_json_pointer, nlohmann::json());
  EXPECT_EQ(read.value("points", 0ull), 20000u - missing) << read;
  EXPECT_EQ(read.value("points", 0ull) % 1000, 0u) << "whole chunks: " << read;
  ASSERT_EQ(pcv("render --backend cpu --size 32x24 " + file + " --out " +
                    dir.file("a.png").string() + " --report " + report,
                &output),
            0)
      << output;
  EXPECT_EQ(test::readJsonReport(report).value("/files/0/points"_json_pointer, 0ull),
            20000u - missing);
  for (const std::string& command :
       {"info " + file, "info --stats " + file,
        "render --backend cpu --size 32x24 " + file + " --out " + dir.file("b.png").string()}) {
    EXPECT_EQ(pcv(command + " --strict", &output), 1) << command << "\n" << output;
  }
}

}  // namespace
}  // namespace pcv
