// `--backend vulkan` and `pcv info --devices` end to end through the executable: the same
// images as the CPU backend from the cylinders, a file, its quality passes and a streamed COPC
// file, the device in --report, and a clear failure for a device that is not there. The Vulkan
// cases run on any Vulkan device (lavapipe here and in CI) and are skipped without one.
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "json_report.hpp"
#include "pcv/io/png_writer.hpp"
#include "test_support.hpp"

namespace pcv {
namespace {

class VulkanCli : public ::testing::Test {
 protected:
  std::filesystem::path output(const std::string& name) {
    return std::filesystem::temp_directory_path() /
           ("pcv_vulkan_cli_" + std::to_string(::getpid()) + "_" + name);
  }
  int run(const std::string& arguments, std::string* text) {
    return test::runCommand(test::pcvExecutable().string() + " " + arguments, text);
  }
  /// Renders with `backend` and returns the image; the report's figures in `figures`.
  Image render(const std::string& backend, const std::string& arguments,
               nlohmann::json* figures = nullptr) {
    const auto png = output(backend + ".png");
    const auto report = output(backend + ".json");
    std::string text;
    EXPECT_EQ(run("render --backend " + backend + " --size 320x180 --out " + png.string() +
                      " --report " + report.string() + " " + arguments,
                  &text),
              0)
        << text;
    Image image = readPng(png);
    if (figures) *figures = test::readJsonReport(report);
    std::filesystem::remove(png);
    std::filesystem::remove(report);
    return image;
  }
  /// The Vulkan and CPU images of the same arguments differ in no pixel and show something.
  void expectSameImages(const std::string& arguments) {
    nlohmann::json figures;
    const Image vulkan = render("vulkan", arguments, &figures);
    const Image cpu = render("cpu", arguments);
    EXPECT_EQ(figures.value("backend", ""), "vulkan") << figures;
    EXPECT_FALSE(figures.value("device", "").empty()) << figures;
    EXPECT_EQ(test::countDifferentPixels(vulkan, cpu), 0u) << arguments;
    EXPECT_GT(test::countLitPixels(cpu, kOpaqueBlack), 500u) << arguments;
  }
};

TEST_F(VulkanCli, DevicesAreListedWithWhatAutoTakes) {
  const auto report = output("devices.json");
  std::string text;
  ASSERT_EQ(run("info --devices --report " + report.string(), &text), 0) << text;
  const nlohmann::json devices = test::readJsonReport(report)["devices"];
  std::filesystem::remove(report);
  ASSERT_TRUE(devices["cuda"]["usable"].is_boolean()) << devices;
  ASSERT_TRUE(devices["vulkan"].is_array()) << devices;
  const std::string chosen = devices.value("auto", "");
  EXPECT_TRUE(chosen == "cuda" || chosen == "vulkan" || chosen == "cpu") << devices;
  bool gpu = false;
  for (const nlohmann::json& device : devices["vulkan"]) {
    EXPECT_TRUE(device["name"].is_string());
    gpu = gpu || (device.value("usable", false) && !device.value("software", true));
  }
  // auto never takes a software device.
  if (!gpu && !devices["cuda"].value("usable", false)) {
    EXPECT_EQ(chosen, "cpu");
  }
}

TEST_F(VulkanCli, AShaderFromTheLoadFolderIsUsedAndOneThatIsNoSpirvRefused) {
  PCV_REQUIRE_VULKAN();
  const auto folder = output("shaders");
  std::filesystem::create_directories(folder);
  const std::string render = "PCV_VULKAN_SHADER_LOAD=" + folder.string() + " " +
                             test::pcvExecutable().string() +
                             " render --backend vulkan --points 300000 --size 320x180 --out " +
                             output("loaded.png").string() + " 2>&1";
  std::string text;
  { std::ofstream(folder / "compact_raster_plain.spv") << "not a shader"; }
  EXPECT_NE(test::runCommand(render, &text), 0) << text;
  // A raster that draws nothing, in place of the built-in one: the frame stays empty.
  {
    std::ofstream(folder / "empty.comp") << "#version 460\nlayout(local_size_x = 256) in;\n"
                                            "void main() {}\n";
  }
  if (test::runCommand("glslangValidator -V --target-env vulkan1.2 -o " +
                           (folder / "compact_raster_plain.spv").string() + " " +
                           (folder / "empty.comp").string() + " > /dev/null 2>&1",
                       &text) != 0) {
    std::filesystem::remove_all(folder);
    GTEST_SKIP() << "glslangValidator is not installed";
  }
  ASSERT_EQ(test::runCommand(render, &text), 0) << text;
  EXPECT_EQ(test::countLitPixels(readPng(output("loaded.png")), kOpaqueBlack), 0u);
  std::filesystem::remove(output("loaded.png"));
  std::filesystem::remove_all(folder);
}

TEST_F(VulkanCli, TheCylindersAndTheirQualityPassesMatchTheCpuBackend) {
  PCV_REQUIRE_VULKAN();
  expectSameImages("--points 300000");
  expectSameImages("--points 300000 --point-size 3 --point-shape round --fill-holes 2 --edl on --hq");
}

TEST_F(VulkanCli, AFileAndAStreamedCopcFileMatchTheCpuBackend) {
  PCV_REQUIRE_VULKAN();
  const std::filesystem::path copc = test::testDataDir() / "laz-corpus" / "lone-star.copc.laz";
  if (!std::filesystem::exists(copc)) GTEST_SKIP() << copc << " is not here";
  expectSameImages(copc.string());
  // Under a small --memory the file streams: its nodes come and go in the reserved pool.
  nlohmann::json figures;
  const Image streamed = render("vulkan", "--memory 24M " + copc.string(), &figures);
  EXPECT_TRUE(figures.contains("stream")) << figures;
  EXPECT_EQ(test::countDifferentPixels(streamed, render("cpu", "--memory 24M " + copc.string())),
            0u);
}

TEST_F(VulkanCli, AMissingDeviceIsAClearErrorNotACrash) {
  PCV_REQUIRE_VULKAN();
  std::string text;
  const int status = run("render --backend vulkan --vulkan-device 99 --points 10 --out " +
                             output("none.png").string(),
                         &text);
  EXPECT_GT(status, 0) << text;  // an exit code (runCommand gives -1 for a signal)
  EXPECT_FALSE(std::filesystem::exists(output("none.png")));
}

}  // namespace
}  // namespace pcv
