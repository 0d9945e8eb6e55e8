// `pcv render` of a COPC file, streamed from its octree: the image, the messages that say what
// was drawn, the converged image against --in-core, and budgets too small for the root.
// Reads a COPC file of another project's test suite (skipped where absent).
#include <chrono>
#include <filesystem>

#include "pcv/io/png_writer.hpp"
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
                                copc_.string() + " --size 320x180 " + arguments,
                            text);
  }
  std::filesystem::path copc_;
};

TEST_F(StreamCli, StreamsTheOctreeAndSaysWhatItDrew) {
  const auto png = output("streamed.png");
  std::string text;
  ASSERT_EQ(render("--out " + png.string(), &text), 0) << text;
  EXPECT_NE(text.find("point budget"), std::string::npos) << text;
  EXPECT_NE(text.find("first image after"), std::string::npos) << text;
  EXPECT_NE(text.find("converged after"), std::string::npos) << text;
  EXPECT_GT(test::countLitPixels(readPng(png), kOpaqueBlack), 1000u);
  std::filesystem::remove(png);
}

TEST_F(StreamCli, SmallPointBudgetDrawsFewerPoints) {
  const auto png = output("budget.png");
  std::string text;
  ASSERT_EQ(render("--point-budget 100k --out " + png.string(), &text), 0) << text;
  // "converged after T s: A of B nodes, DRAWN of TOTAL points drawn"
  const size_t nodes = text.find(" nodes, ", text.find("converged after"));
  ASSERT_NE(nodes, std::string::npos) << text;
  const unsigned long long drawn = std::stoull(text.substr(nodes + 8));
  EXPECT_LE(drawn, 100'000u) << text;
  EXPECT_GT(drawn, 0u) << text;
  std::filesystem::remove(png);
}

TEST_F(StreamCli, InCoreReadsEveryPoint) {
  const auto png = output("in_core.png");
  std::string text;
  ASSERT_EQ(render("--in-core --out " + png.string(), &text), 0) << text;
  EXPECT_NE(text.find("518862 points"), std::string::npos) << text;
  EXPECT_EQ(text.find("first image after"), std::string::npos) << text;
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
  const std::string render = "PCV_CACHE_DIR=" + (dir / "cache").string() + " " + pcv +
                             " render --backend cpu --size 160x90 --memory 1M " + las + " --out " +
                             (dir / "a.png").string();
  ASSERT_EQ(test::runCommand(render, &text), 0) << text;
  EXPECT_NE(text.find("converting once to the COPC cache"), std::string::npos) << text;
  EXPECT_NE(text.find("converged after"), std::string::npos) << text;
  const auto cached = [&] {
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(dir / "cache")) {
      files.push_back(entry.path());
    }
    return files;
  };
  ASSERT_EQ(cached().size(), 1u);
  ASSERT_EQ(test::runCommand(render, &text), 0) << text;
  EXPECT_NE(text.find("from its COPC cache"), std::string::npos) << text;
  EXPECT_EQ(text.find("converting"), std::string::npos) << "reused, not converted again: " << text;
  // A changed input is converted again, and its old conversion goes.
  std::filesystem::last_write_time(las,
                                   std::filesystem::last_write_time(las) + std::chrono::seconds(5));
  ASSERT_EQ(test::runCommand(render, &text), 0) << text;
  EXPECT_NE(text.find("converting once"), std::string::npos) << text;
  EXPECT_EQ(cached().size(), 1u);
  // A COPC file streams itself, however little --memory is.
  const std::string copc = (dir / "small.copc.laz").string();
  ASSERT_EQ(test::runCommand(pcv + " convert --points 20000 --quiet " + copc, &text), 0) << text;
  ASSERT_EQ(test::runCommand("PCV_CACHE_DIR=" + (dir / "cache").string() + " " + pcv +
                                 " render --backend cpu --size 160x90 --memory 1k " + copc +
                                 " --out " + (dir / "c.png").string(),
                             &text),
            0)
      << text;
  EXPECT_EQ(text.find("COPC cache"), std::string::npos) << text;
  EXPECT_NE(text.find("converged after"), std::string::npos) << text;
  // Within memory the file is read whole as before.
  ASSERT_EQ(test::runCommand(pcv + " render --backend cpu --size 160x90 " + las + " --out " +
                                 (dir / "b.png").string(),
                             &text),
            0)
      << text;
  EXPECT_EQ(text.find("COPC cache"), std::string::npos) << text;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace pcv
