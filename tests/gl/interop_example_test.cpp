// examples/interop_kernel, built against the installed package by the CTest fixture
// package.installed_package_builds_the_interop_kernel_example, run headless: its kernel writes
// the screen buffer's pixel buffer mapped into CUDA, GL copies and blits it, the PNG holds the
// last frame. Every pixel is checked against the pattern the example documents. Needs an NVIDIA
// GPU (CUDA and an EGL device CUDA can see); skips with the reason without one.
#include <unistd.h>

#include <filesystem>
#include <string>

#include "gl_test_support.hpp"
#include "pcv/core/point.hpp"
#include "pcv/io/png_writer.hpp"

namespace pcv {
namespace {

/// The example's pattern for pixel (x, y), y from the bottom, at `tick`
/// (examples/interop_kernel/pattern.hpp), restated here as the test's oracle.
uint32_t expectedPixel(uint32_t x, uint32_t y, uint32_t tick) {
  return packRgba((x + tick) & 0xffu, (y + 2u * tick) & 0xffu, ((x ^ y) + 3u * tick) & 0xffu);
}

/// Pixels of `image` that differ from the pattern at `tick`.
uint64_t countPatternMismatches(const Image& image, uint32_t tick) {
  uint64_t mismatches = 0;
  for (int y = 0; y < image.height; ++y) {
    for (int x = 0; x < image.width; ++x) {
      mismatches += image.at(x, y) != expectedPixel(uint32_t(x), uint32_t(y), tick);
    }
  }
  return mismatches;
}

TEST(InteropKernelExample, HeadlessFramesEndWithTheKernelsLastPattern) {
  PCV_REQUIRE_CUDA();
  PCV_REQUIRE_EGL();
  const std::filesystem::path example = PCV_INTEROP_EXAMPLE;
  ASSERT_TRUE(std::filesystem::exists(example))
      << example << " is missing: run the test through ctest, whose fixture builds it first";
  const std::filesystem::path out =
      std::filesystem::temp_directory_path() / ("pcv_interop_kernel_" + std::to_string(getpid()));
  std::filesystem::create_directories(out);
  // 1 frame, and 37 (tick 36): the image is the last frame's, not the first one's left over.
  for (const uint32_t frames : {1u, 37u}) {
    SCOPED_TRACE("frames " + std::to_string(frames));
    const std::filesystem::path png = out / ("frame" + std::to_string(frames) + ".png");
    std::string output;
    const int status = test::runCommand(example.string() + " --headless --frames " +
                                            std::to_string(frames) + " --out " + png.string(),
                                        &output);
    ASSERT_EQ(status, 0) << output;
    const Image image = readPng(png);
    ASSERT_EQ(image.width, 640);
    ASSERT_EQ(image.height, 360);
    EXPECT_EQ(countPatternMismatches(image, frames - 1), 0u);
    EXPECT_GT(countPatternMismatches(image, frames), 0u) << "the pattern does not move";
  }
  std::filesystem::remove_all(out);
}

TEST(InteropKernelExample, BadCommandLineIsRefusedWithStatusTwo) {
  const std::filesystem::path example = PCV_INTEROP_EXAMPLE;
  ASSERT_TRUE(std::filesystem::exists(example)) << example << " is missing";
  for (const char* arguments : {"--frames 0", "--headless", "--frames", "--size 3"}) {
    SCOPED_TRACE(arguments);
    std::string output;
    EXPECT_EQ(test::runCommand(example.string() + " " + arguments, &output), 2) << output;
  }
}

}  // namespace
}  // namespace pcv
