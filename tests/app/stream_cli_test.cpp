// `pcv render` of a COPC file, streamed from its octree: the image, the messages that say what
// was drawn, the converged image against --in-core, and budgets too small for the root.
// Reads a COPC file of another project's test suite (skipped where absent).
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

}  // namespace
}  // namespace pcv
