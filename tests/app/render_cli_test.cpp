// `pcv render` end to end: the executable, its exit codes and its messages.
#include <filesystem>

#include "pcv/io/png_writer.hpp"
#include "pcv/core/host_memory.hpp"
#include "json_report.hpp"
#include "test_support.hpp"

namespace pcv {
namespace {

class RenderCli : public ::testing::Test {
 protected:
  std::filesystem::path output(const std::string& name) {
    return std::filesystem::temp_directory_path() /
           ("pcv_cli_" + std::to_string(::getpid()) + "_" + name);
  }
  int run(const std::string& arguments, std::string* text) {
    return test::runCommand(test::pcvExecutable().string() + " " + arguments, text);
  }
};

TEST_F(RenderCli, WritesThePngOfTheCylinders) {
  const auto png = output("cylinders.png");
  const auto report = output("cylinders.json");
  std::string text;
  ASSERT_EQ(run("render --backend cpu --points 200000 --size 320x180 --out " + png.string() +
                    " --report " + report.string(),
                &text),
            0)
      << text;
  const Image image = readPng(png);
  EXPECT_EQ(image.width, 320);
  EXPECT_EQ(image.height, 180);
  EXPECT_GT(test::countLitPixels(image, kOpaqueBlack), 2000u);
  const nlohmann::json figures = test::readJsonReport(report);
  EXPECT_EQ(figures.value("backend", ""), "cpu") << figures;
  EXPECT_EQ(figures.value("points", 0ull), 200000u) << figures;
  EXPECT_EQ(figures.value("out", ""), png.string()) << figures;
  std::filesystem::remove(png);
  std::filesystem::remove(report);
}

TEST_F(RenderCli, ZeroPointsGiveABlackImage) {
  const auto png = output("zero.png");
  std::string text;
  ASSERT_EQ(run("render --backend cpu --points 0 --size 64x32 --out " + png.string(), &text), 0)
      << text;
  const Image image = readPng(png);
  EXPECT_EQ(test::countLitPixels(image, kOpaqueBlack), 0u);
  std::filesystem::remove(png);
}

TEST_F(RenderCli, BadSizeIsRejectedWithAMessage) {
  std::string text;
  EXPECT_NE(run("render --backend cpu --size 12by7", &text), 0);
  EXPECT_NE(text.find("WIDTHxHEIGHT"), std::string::npos) << text;
}

TEST_F(RenderCli, UnknownBackendIsRejectedByTheParser) {
  std::string text;
  EXPECT_NE(run("render --backend metal", &text), 0);
  EXPECT_NE(text.find("metal"), std::string::npos) << text;
}

TEST_F(RenderCli, CudaWithoutADeviceIsOneClearLine) {
  std::string reason;
  if (cudaAvailable(&reason)) GTEST_SKIP() << "a CUDA device is present";
  std::string text;
  EXPECT_EQ(run("render --backend cuda --points 10 --out " + output("none.png").string(), &text),
            1);
  EXPECT_NE(text.find("cannot use the cuda backend"), std::string::npos) << text;
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1) << text;
}

/// `--decode`: auto and cpu draw the same pixels; cuda the same again where a device is usable,
/// and otherwise fails without writing an image (never the CPU's points under the GPU's name).
TEST_F(RenderCli, DecodeChoosesWhereLazChunksAreDecoded) {
  std::string text;
  const std::filesystem::path laz = output("decode.laz");
  ASSERT_EQ(run("convert -q --points 30000 --chunk-size 5000 " + laz.string(), &text), 0) << text;
  const auto render = [&](const std::string& decode, const std::string& name) {
    std::filesystem::remove(output(name));
    return run("render --backend cpu --size 160x90 --decode " + decode + " " + laz.string() +
                   " --out " + output(name).string(),
               &text);
  };
  ASSERT_EQ(render("cpu", "cpu.png"), 0) << text;
  ASSERT_EQ(render("auto", "auto.png"), 0) << text;
  const Image cpu = readPng(output("cpu.png"));
  EXPECT_GT(test::countLitPixels(cpu, kOpaqueBlack), 100u);
  EXPECT_EQ(test::countDifferentPixels(cpu, readPng(output("auto.png"))), 0u);
  std::string reason;
  if (cudaAvailable(&reason)) {
    ASSERT_EQ(render("cuda", "cuda.png"), 0) << text;
    EXPECT_EQ(test::countDifferentPixels(cpu, readPng(output("cuda.png"))), 0u);
  } else {
    EXPECT_EQ(render("cuda", "cuda.png"), 1) << text;
    EXPECT_FALSE(std::filesystem::exists(output("cuda.png")));
  }
  EXPECT_NE(render("gpu", "gpu.png"), 0) << text;
  for (const char* name : {"decode.laz", "cpu.png", "auto.png", "cuda.png"}) {
    std::filesystem::remove(output(name));
  }
}

TEST_F(RenderCli, ImpossiblePointCountNamesTheSizes) {
  // Twice what the available memory holds at 24 bytes per point (other tests free memory).
  const uint64_t count = availableHostMemoryBytes() / 24 * 2;
  if (count > kMaxPointCount) GTEST_SKIP() << "this machine holds every point a renderer takes";
  std::string text;
  EXPECT_EQ(run("render --backend cpu --points " + std::to_string(count) + " --out " +
                    output("huge.png").string(),
                &text),
            1);
  EXPECT_NE(text.find("not enough host memory"), std::string::npos) << text;
  EXPECT_FALSE(std::filesystem::exists(output("huge.png")));
}

TEST_F(RenderCli, UnwritableOutputIsAClearError) {
  std::string text;
  EXPECT_EQ(run("render --backend cpu --points 10 --out /nonexistent/dir/x.png", &text), 1);
  EXPECT_NE(text.find("/nonexistent/dir/x.png"), std::string::npos) << text;
}

}  // namespace
}  // namespace pcv
