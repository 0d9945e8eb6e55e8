// `pcv render` of a COPC file, streamed from its octree: the image, the messages that say what
// was drawn, the converged image against --in-core, and budgets too small for the root.
// Reads a COPC file of another project's test suite (skipped where absent).
#include <chrono>
#include <filesystem>

#include "pcv/io/png_writer.hpp"
#include "json_report.hpp"
#include "test_support.hpp"

namespace pcv {
namespace {

class StreamCli : public ::testing::Test {
 protected:
  void SetUp() override {
    copc_ = test::testDataDir() / "laz-corpus" / "lone-star.copc.laz";
    if (test::testDataDir().empty() || !std::filesystem::exists(copc_)) {
      GTEST_SKIP() << "lone-star.copc.laz not found in the shared data";
    }
  }
  std::filesystem::path output(const std::string& name) {
    return std::filesystem::temp_directory_path() /
           ("pcv_stream_cli_" + std::to_string(::getpid()) + "_" + name);
  }
  int render(const std::string& arguments, std::string* text) {
    return test::runCommand(test::pcvExecutable().string() + " render --backend cpu " +
                                copc_.string() + " --size 320x180 --report " + report().string() +
                                " " + arguments,
                            text);
  }
  std::filesystem::path report() { return output("report.json"); }
  std::filesystem::path copc_;
};

TEST_F(StreamCli, StreamsTheOctreeAndSaysWhatItDrew) {
  const auto png = output("streamed.png");
  std::string text;
  ASSERT_EQ(render("--out " + png.string(), &text), 0) << text;
  const nlohmann::json stream =
      test::readJsonReport(report()).value("stream", nlohmann::json::object());
  EXPECT_EQ(stream.value("pointBudget", 0ull), 10'000'000u) << stream;  // the cpu's default
  EXPECT_GT(stream.value("firstImagePoints", 0ull), 0u) << stream;
  EXPECT_GE(stream.value("seconds", -1.0), stream.value("firstImageSeconds", -1.0)) << stream;
  EXPECT_TRUE(stream.value("converged", false)) << stream;
  EXPECT_EQ(stream.value("pointsInFile", 0ull), 518862u) << stream;
  EXPECT_GT(test::countLitPixels(readPng(png), kOpaqueBlack), 1000u);
  std::filesystem::remove(png);
}

TEST_F(StreamCli, SmallPointBudgetDrawsFewerPoints) {
  const auto png = output("budget.png");
  std::string text;
  ASSERT_EQ(render("--point-budget 100k --out " + png.string(), &text), 0) << text;
  const nlohmann::json stream =
      test::readJsonReport(report()).value("stream", nlohmann::json::object());
  const uint64_t drawn = stream.value("pointsDrawn", uint64_t(0));
  EXPECT_LE(drawn, 100'000u) << stream;
  EXPECT_GT(drawn, 0u) << stream;
  std::filesystem::remove(png);
}

TEST_F(StreamCli, InCoreReadsEveryPoint) {
  const auto png = output("in_core.png");
  std::string text;
  ASSERT_EQ(render("--in-core --out " + png.string(), &text), 0) << text;
  const nlohmann::json figures = test::readJsonReport(report());
  EXPECT_EQ(figures.value("points", 0ull), 518862u) << figures;
  EXPECT_FALSE(figures.contains("stream")) << figures;
  std::filesystem::remove(png);
}

TEST_F(StreamCli, GpuBudgetBelowTheRootIsRefusedWithTheSizes) {
  const auto png = output("tiny.png");
  std::string text;
  EXPECT_EQ(render("--gpu-memory 100k --out " + png.string(), &text), 1) << text;
  EXPECT_NE(text.find("--gpu-memory"), std::string::npos) << text;
  EXPECT_NE(text.find("root node"), std::string::npos) << text;
  EXPECT_FALSE(std::filesystem::exists(png));
}

TEST_F(StreamCli, BadPointBudgetIsRejectedByTheParser) {
  std::string text;
  EXPECT_NE(render("--point-budget lots --out " + output("bad.png").string(), &text), 0);
  EXPECT_NE(text.find("--point-budget"), std::string::npos) << text;
}

TEST(CopcCacheCli, LasLargerThanMemoryIsConvertedOnceToTheCacheThenStreamed) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("pcv_copc_cache_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string pcv = test::pcvExecutable().string();
  const std::string las = (dir / "big.las").string();
  std::string text;
  ASSERT_EQ(test::runCommand(pcv + " convert --points 200000 --seed 5 --quiet " + las, &text), 0)
      << text;
  // 200 000 points take 3.2 MB read whole: more than --memory 1M.
  const std::string report = (dir / "report.json").string();
  const auto figures = [&] { return test::readJsonReport(report); };
  const std::string render = "PCV_CACHE_DIR=" + (dir / "cache").string() + " " + pcv +
                             " render --backend cpu --size 160x90 --memory 1M " + las + " --out " +
                             (dir / "a.png").string() + " --report " + report;
  ASSERT_EQ(test::runCommand(render, &text), 0) << text;
  EXPECT_TRUE(figures().value("/copcCache/converted"_json_pointer, false)) << figures();
  EXPECT_TRUE(figures().value("/stream/converged"_json_pointer, false)) << figures();
  const auto cached = [&] {
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(dir / "cache")) {
      files.push_back(entry.path());
    }
    return files;
  };
  ASSERT_EQ(cached().size(), 1u);
  ASSERT_EQ(test::runCommand(render, &text), 0) << text;
  EXPECT_FALSE(figures().value("/copcCache/converted"_json_pointer, true))
      << "reused: " << figures();
  EXPECT_TRUE(figures().value("/stream/converged"_json_pointer, false)) << figures();
  // A changed input is converted again, and its old conversion goes.
  std::filesystem::last_write_time(las,
                                   std::filesystem::last_write_time(las) + std::chrono::seconds(5));
  ASSERT_EQ(test::runCommand(render, &text), 0) << text;
  EXPECT_TRUE(figures().value("/copcCache/converted"_json_pointer, false)) << figures();
  EXPECT_EQ(cached().size(), 1u);
  // A COPC file streams itself, however little --memory is.
  const std::string copc = (dir / "small.copc.laz").string();
  ASSERT_EQ(test::runCommand(pcv + " convert --points 20000 --quiet " + copc, &text), 0) << text;
  ASSERT_EQ(test::runCommand("PCV_CACHE_DIR=" + (dir / "cache").string() + " " + pcv +
                                 " render --backend cpu --size 160x90 --memory 1k " + copc +
                                 " --out " + (dir / "c.png").string() + " --report " + report,
                             &text),
            0)
      << text;
  EXPECT_FALSE(figures().contains("copcCache")) << figures();
  EXPECT_TRUE(figures().value("/stream/converged"_json_pointer, false)) << figures();
  // Within memory the file is read whole as before.
  ASSERT_EQ(test::runCommand(pcv + " render --backend cpu --size 160x90 " + las + " --out " +
                                 (dir / "b.png").string() + " --report " + report,
                             &text),
            0)
      << text;
  EXPECT_FALSE(figures().contains("copcCache")) << figures();
  EXPECT_EQ(figures().value("points", 0ull), 200000u) << figures();
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace pcv
