// `pcv convert` end to end: the cylinder scene to LAZ, text to LAS in a chosen point format,
// several inputs merged, the octree's keys sorted on the GPU or the CPU to the same file, and the
// refusals.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <numeric>

#include "io_test_util.hpp"
#include "json_report.hpp"
#include "test_support.hpp"

namespace pcv::test {
namespace {

std::string pcv(const std::string& arguments, int* status = nullptr) {
  std::string output;
  const int code = runCommand(pcvExecutable().string() + " " + arguments, &output);
  if (status) *status = code;
  return output;
}

/// " --report FILE" for a report in `dir`, read back by `figures`.
std::string reportIn(const TempDir& dir) {
  return " --report " + dir.file("report.json").string();
}
nlohmann::json figures(const TempDir& dir) {
  return readJsonReport(dir.file("report.json"));
}

TEST(ConvertCli, WritesTheCylinderSceneAsLaz) {
  TempDir dir;
  const std::string out = dir.file("c.laz").string();
  int status = -1;
  std::string output = pcv("convert --points 120000 --seed 5 " + out + reportIn(dir), &status);
  ASSERT_EQ(status, 0) << output;
  EXPECT_EQ(
      figures(dir)["convert"],
      nlohmann::json({{"output", out}, {"points", 120000}, {"format", "LAZ"}, {"pointFormat", 3}}));
  output = pcv("info " + out + reportIn(dir), &status);
  ASSERT_EQ(status, 0) << output;
  EXPECT_EQ(figures(dir).value("/files/0/points"_json_pointer, 0ull), 120000u) << output;
  EXPECT_NE(output.find("compressor 2 (pointwise chunked)"), std::string::npos) << output;
  EXPECT_NE(output.find("50000 points each, 3 chunks"), std::string::npos) << output;
}

TEST(ConvertCli, WritesTextAsLasInTheAskedPointFormat) {
  TempDir dir;
  writeText(dir.file("a.xyz"), "500000.5 5000000.25 10 200\n500001 5000001 11 100\n");
  int status = -1;
  std::string output = pcv("convert " + dir.file("a.xyz").string() + " " +
                               dir.file("a.las").string() + " --point-format 7" + reportIn(dir),
                           &status);
  ASSERT_EQ(status, 0) << output;
  EXPECT_EQ(figures(dir).value("/convert/pointFormat"_json_pointer, 0), 7) << output;
  output = pcv("info " + dir.file("a.las").string() + reportIn(dir), &status);
  ASSERT_EQ(status, 0) << output;
  EXPECT_NE(output.find("LAS 1.4, point format 7"), std::string::npos) << output;
  const nlohmann::json file = figures(dir).value("/files/0"_json_pointer, nlohmann::json::object());
  EXPECT_EQ(file.value("points", 0ull), 2u) << file;
  EXPECT_EQ(file.value("/bounds/min/0"_json_pointer, 0.0), 500000.5) << file;
}

TEST(ConvertCli, MergesInputsOfDifferentFormats) {
  TempDir dir;
  int status = -1;
  pcv("convert --points 3000 --seed 1 --point-format 1 " + dir.file("a.las").string(), &status);
  ASSERT_EQ(status, 0);
  pcv("convert --points 2000 --seed 2 --point-format 8 " + dir.file("b.laz").string(), &status);
  ASSERT_EQ(status, 0);
  std::string output =
      pcv("convert " + dir.file("a.las").string() + " " + dir.file("b.laz").string() + " " +
              dir.file("m.laz").string() + reportIn(dir),
          &status);
  ASSERT_EQ(status, 0) << output;
  EXPECT_EQ(figures(dir).value("/convert/pointFormat"_json_pointer, 0), 1) << output;
  output = pcv("info " + dir.file("m.laz").string() + reportIn(dir), &status);
  ASSERT_EQ(status, 0) << output;
  EXPECT_EQ(figures(dir).value("/files/0/points"_json_pointer, 0ull), 5000u) << output;
}

TEST(ConvertCli, WritesTheCylinderSceneAsCopcAndInfoShowsItsLevels) {
  TempDir dir;
  const std::string out = dir.file("c.copc.laz").string();
  int status = -1;
  std::string output =
      pcv("convert --points 200000 --seed 5 --node-points 5000 " + out + reportIn(dir), &status);
  ASSERT_EQ(status, 0) << output;
  const nlohmann::json written = figures(dir)["convert"];
  EXPECT_EQ(written.value("points", 0ull), 200000u) << written;
  EXPECT_EQ(written.value("format", ""), "COPC") << written;
  EXPECT_EQ(written.value("pointFormat", 0), 7) << written;
  const std::vector<uint64_t> perLevel = written.value("pointsPerLevel", std::vector<uint64_t>());
  EXPECT_GT(perLevel.size(), 1u) << written;
  EXPECT_EQ(std::accumulate(perLevel.begin(), perLevel.end(), uint64_t(0)), 200000u) << written;
  output = pcv("info " + out, &status);
  ASSERT_EQ(status, 0) << output;
  EXPECT_NE(output.find("COPC 1.4, point format 7"), std::string::npos) << output;
  EXPECT_NE(output.find("LAZ chunks: variable size"), std::string::npos) << output;
  EXPECT_NE(output.find("COPC octree: "), std::string::npos) << output;
  EXPECT_NE(output.find("COPC nodes per level: 0: 1, 1: "), std::string::npos) << output;
  EXPECT_NE(output.find("COPC spacing per level: 0: "), std::string::npos) << output;
}

TEST(ConvertCli, CopcSaysWhereTheTimeWentEvenWhenQuiet) {
  TempDir dir;
  int status = -1;
  const std::string output = pcv("convert -q --points 100000 --seed 2 --node-points 5000 " +
                                     dir.file("c.copc.laz").string() + reportIn(dir),
                                 &status);
  ASSERT_EQ(status, 0) << output;
  // The line for the benchmarks is there even with -q; its figures are the report's.
  EXPECT_NE(output.find("pcv: COPC in "), std::string::npos) << output;
  const nlohmann::json phases =
      figures(dir).value("/convert/phaseSeconds"_json_pointer, nlohmann::json::object());
  double sum = 0.0;
  for (const char* phase : {"reading", "keys", "sort", "sampling", "grouping", "gathering",
                            "encoding", "finishing", "writing"}) {
    EXPECT_GT(phases.value(phase, 0.0), 0.0) << phase << " in " << phases;
    if (phase != std::string("writing")) sum += phases.value(phase, 0.0);
  }
  EXPECT_LE(sum, phases.value("total", 0.0) * 1.001) << phases;
  // The in-memory path has no temporary files, so none of their phases.
  EXPECT_EQ(phases.value("partitioning", -1.0), 0.0) << phases;
  EXPECT_EQ(figures(dir).value("/convert/temporaryBytes"_json_pointer, 1ull), 0u);
}

/// FNV-1a over a file's bytes: a fingerprint to compare a file against the one written before.
uint64_t fileFingerprint(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  uint64_t hash = 0xcbf29ce484222325ull;
  for (std::istreambuf_iterator<char> it(in), end; it != end; ++it) {
    hash = (hash ^ uint8_t(*it)) * 0x100000001b3ull;
  }
  return hash;
}

// Speeding the conversion up must not change a byte of what it writes: these are the files
// written before any of it (the CPU and GPU sorts give the same bytes, tested below), in memory
// and through temporary files.
TEST(ConvertCli, CopcOfTwoMillionPointsIsTheFileItAlwaysWas) {
  TempDir dir;
  struct Case {
    const char* flags;
    uint64_t bytes;
    uint64_t fingerprint;
  };
  for (const Case& c :
       {Case{"--points 2000000 --memory 2G", 38317277, 11328199100835258815ull},
        Case{"--points 300000 --memory 6M --node-points 3000", 6257970, 888401358278700144ull}}) {
    SCOPED_TRACE(c.flags);
    const std::filesystem::path out = dir.file("c.copc.laz");
    int status = -1;
    const std::string output =
        pcv("convert -q --overwrite --seed 1 " + std::string(c.flags) + " " + out.string(),
            &status);
    ASSERT_EQ(status, 0) << output;
    EXPECT_EQ(std::filesystem::file_size(out), c.bytes);
    EXPECT_EQ(fileFingerprint(out), c.fingerprint);
  }
}

TEST(ConvertCli, WritesCopcFromTextAndUnderAnyLazNameWithCopc) {
  TempDir dir;
  writeText(dir.file("a.xyz"), "500000.5 5000000.25 10 200\n500001 5000001 11 100\n");
  int status = -1;
  std::string output =
      pcv("convert -q --copc " + dir.file("a.xyz").string() + " " + dir.file("a.laz").string(),
          &status);
  ASSERT_EQ(status, 0) << output;
  output = pcv("info " + dir.file("a.laz").string(), &status);
  EXPECT_NE(output.find("COPC octree: 1 levels, 1 nodes"), std::string::npos) << output;
  EXPECT_NE(output.find("point format 6"), std::string::npos) << output;
  EXPECT_NE(output.find("500000.500"), std::string::npos) << output;
  output = pcv("convert --copc " + dir.file("a.xyz").string() + " " + dir.file("a.las").string(),
               &status);
  EXPECT_NE(status, 0);
  EXPECT_NE(output.find("must end in .laz"), std::string::npos) << output;
}

TEST(ConvertCli, BadInputLeavesNoOutput) {
  TempDir dir;
  int status = -1;
  pcv("convert -q --points 50000 --seed 1 " + dir.file("good.las").string(), &status);
  ASSERT_EQ(status, 0);
  // Cut in the middle of the records: the header promises more than the file holds.
  std::filesystem::resize_file(dir.file("good.las"), 375 + 20000 * 34);
  for (const char* memory : {"", " --memory 4M --node-points 1000"}) {
    SCOPED_TRACE(memory);
    const std::string output = pcv("convert -q " + dir.file("good.las").string() + " " +
                                       dir.file("out.copc.laz").string() + memory,
                                   &status);
    EXPECT_EQ(status, 1) << output;
    EXPECT_NE(output.find("truncated"), std::string::npos) << output;
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(dir.file(""))) {
      names.push_back(entry.path().filename().string());
    }
    EXPECT_EQ(names, std::vector<std::string>{"good.las"});
  }
}

TEST(ConvertCli, CtrlCLeavesNoOutputAndEndsByTheSignal) {
  TempDir dir;
  int status = -1;
  // Long enough to be interrupted while its temporary files exist.
  const std::string output =
      pcv("convert -q --points 100000000 --memory 64M --node-points 20000 " +
              dir.file("big.copc.laz").string() + " & pid=$!; sleep 1; kill -INT $pid; wait $pid",
          &status);
  EXPECT_EQ(status, 128 + 2) << output;
  EXPECT_TRUE(std::filesystem::is_empty(dir.file(""))) << output;
}

TEST(ConvertCli, RefusesAnOutputThatIsNeitherLasNorLaz) {
  TempDir dir;
  int status = 0;
  const std::string output = pcv("convert --points 10 " + dir.file("x.ply").string(), &status);
  EXPECT_NE(status, 0);
  EXPECT_NE(output.find(".las, .laz or .copc.laz"), std::string::npos) << output;
}

TEST(ConvertCli, SortOnTheGpuWithoutOneIsAClearErrorAndWritesNothing) {
  if (cudaAvailable()) GTEST_SKIP() << "this machine has a usable GPU";
  TempDir dir;
  int status = 0;
  const std::string output =
      pcv("convert -q --points 1000 --sort cuda " + dir.file("x.copc.laz").string(), &status);
  EXPECT_EQ(status, 1) << output;
  EXPECT_NE(output.find("cannot sort octree keys on the GPU: "), std::string::npos) << output;
  EXPECT_TRUE(std::filesystem::is_empty(dir.file(""))) << output;
}

TEST(ConvertCli, SortOnTheGpuWritesTheCpusFile) {
  PCV_REQUIRE_CUDA();
  TempDir dir;
  for (const char* sort : {"cpu", "cuda"}) {
    int status = -1;
    const std::string output =
        pcv("convert --points 200000 --seed 3 --node-points 5000 --sort " + std::string(sort) +
                " " + dir.file(std::string(sort) + ".copc.laz").string() + reportIn(dir),
            &status);
    ASSERT_EQ(status, 0) << output;
    EXPECT_EQ(figures(dir).value("/convert/sampler"_json_pointer, ""), sort) << output;
  }
  std::ifstream a(dir.file("cpu.copc.laz"), std::ios::binary);
  std::ifstream b(dir.file("cuda.copc.laz"), std::ios::binary);
  const std::string cpuBytes{std::istreambuf_iterator<char>(a), std::istreambuf_iterator<char>()};
  const std::string gpuBytes{std::istreambuf_iterator<char>(b), std::istreambuf_iterator<char>()};
  ASSERT_FALSE(cpuBytes.empty());
  EXPECT_TRUE(cpuBytes == gpuBytes) << cpuBytes.size() << " and " << gpuBytes.size() << " bytes";
}

}  // namespace
}  // namespace pcv::test
