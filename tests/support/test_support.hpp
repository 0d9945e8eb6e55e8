/// @brief Shared test helpers: GPU detection (tests skip, never pass, without one), scene and view
/// setup, image comparison.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

#include "pcv/core/camera.hpp"
#include "pcv/core/image.hpp"
#include "pcv/raster/renderer.hpp"
#include "pcv/demo/cylinder_producer.hpp"

namespace pcv::test {

/// Skips the current test with the reason when no usable CUDA device exists.
#define PCV_REQUIRE_CUDA()                                              \
  do {                                                                  \
    std::string pcvWhyNot_;                                             \
    if (!::pcv::cudaAvailable(&pcvWhyNot_)) GTEST_SKIP() << pcvWhyNot_; \
  } while (0)

/// Skips the current test with the reason when this build has no Vulkan backend or the machine
/// no Vulkan device it can draw on (a software one such as lavapipe counts).
#define PCV_REQUIRE_VULKAN()                                          \
  do {                                                                \
    std::string pcvWhyNot_;                                           \
    if (!::pcv::test::vulkanDeviceAvailable(&pcvWhyNot_)) GTEST_SKIP() << pcvWhyNot_; \
  } while (0)

/// True when `createRenderer("vulkan")` can draw here; otherwise `reason` says why not.
bool vulkanDeviceAvailable(std::string* reason);

/// The view a camera gives for an image of width x height, points relative to `origin`.
ViewTransform makeView(const Camera& camera, int width, int height,
                       const glm::dvec3& origin = glm::dvec3(0.0));

/// Renders with `renderer` into a host image after filling it with a poison value, so unwritten
/// pixels show up.
Image renderToImage(Renderer& renderer, const ViewTransform& view, const RenderSettings& settings);

struct ImageSizeCase {
  int width, height;
};

/// Pixel value no renderer writes (alpha 0x5a); tests check that none remain.
constexpr uint32_t kPoisonPixel = 0x5a5a5a5au;

/// Number of pixels that differ between two images of equal size.
uint64_t countDifferentPixels(const Image& a, const Image& b);
/// Number of pixels that are not `background`.
uint64_t countLitPixels(const Image& image, uint32_t background);

/// The shared test data folder (../shared/data by default), or empty when absent.
std::filesystem::path testDataDir();
/// Path of the pcv executable under test.
std::filesystem::path pcvExecutable();

/// Runs a command with /bin/sh, returns its exit status; stdout+stderr go to `output`.
int runCommand(const std::string& command, std::string* output);

}  // namespace pcv::test
