#include "test_support.hpp"

#include "pcv/raster/vulkan_devices.hpp"

#include <array>
#include <cstdio>
#include <sys/wait.h>

#include "pcv/raster/view_setup.hpp"

namespace pcv::test {

ViewTransform makeView(const Camera& camera, int width, int height, const glm::dvec3& origin) {
  return makeViewTransform(camera, width, height, origin);
}

bool vulkanDeviceAvailable(std::string* reason) {
  std::string error;
  const std::vector<VulkanDeviceInfo> devices = listVulkanDevices(&error);
  if (devices.empty()) {
    *reason = error;
    return false;
  }
  return chooseVulkanDevice(devices, "", true, reason) >= 0;
}

Image renderToImage(Renderer& renderer, const ViewTransform& view, const RenderSettings& settings) {
  Image image(view.width, view.height, kPoisonPixel);
  renderer.render(view, settings,
                  RenderTarget{image.pixels.data(), view.width, view.height, MemorySpace::Host});
  return image;
}

uint64_t countDifferentPixels(const Image& a, const Image& b) {
  EXPECT_EQ(a.width, b.width);
  EXPECT_EQ(a.height, b.height);
  uint64_t different = 0;
  for (size_t i = 0; i < a.pixels.size() && i < b.pixels.size(); ++i) {
    different += a.pixels[i] != b.pixels[i];
  }
  return different;
}

uint64_t countLitPixels(const Image& image, uint32_t background) {
  uint64_t lit = 0;
  for (uint32_t pixel : image.pixels) lit += pixel != background;
  return lit;
}

std::filesystem::path testDataDir() {
  std::filesystem::path dir = PCV_TEST_DATA_DIR;
  if (const char* env = std::getenv("PCV_TEST_DATA_DIR")) dir = env;
  return std::filesystem::is_directory(dir) ? dir : std::filesystem::path();
}

std::filesystem::path pcvExecutable() {
  // The environment wins so a build can be tested after it was moved to another machine.
  if (const char* env = std::getenv("PCV_EXECUTABLE")) return env;
  return PCV_EXECUTABLE;
}

int runCommand(const std::string& command, std::string* output) {
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return -1;
  std::array<char, 4096> buffer;
  std::string text;
  while (size_t n = fread(buffer.data(), 1, buffer.size(), pipe)) text.append(buffer.data(), n);
  const int status = pclose(pipe);
  if (output) *output = text;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace pcv::test
