#include "cli/device_listing.hpp"

#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

#include "options/run_report.hpp"
#include "pcv/core/error.hpp"
#include "pcv/raster/renderer.hpp"
#include "pcv/raster/vulkan_devices.hpp"

namespace pcv::app {

void describeDevices() {
  const bool print = !reportGoesToStdout();
  std::string whyNotCuda;
  const bool cuda = cudaAvailable(&whyNotCuda);
  nlohmann::json& report = runReport()["devices"];
  report["cuda"] = {{"usable", cuda}, {"reason", cuda ? "" : whyNotCuda}};
  if (print) std::printf("CUDA: %s\n", cuda ? "usable" : ("not usable: " + whyNotCuda).c_str());

  std::string vulkanError;
  const std::vector<VulkanDeviceInfo> devices = listVulkanDevices(&vulkanError);
  report["vulkan"] = nlohmann::json::array();
  if (devices.empty() && print) std::printf("Vulkan: %s\n", vulkanError.c_str());
  for (const VulkanDeviceInfo& device : devices) {
    report["vulkan"].push_back({{"index", device.index},
                                {"name", device.name},
                                {"type", device.type},
                                {"software", device.software},
                                {"memory_bytes", device.memoryBytes},
                                {"usable", device.usable},
                                {"reason", device.reason}});
    if (!print) continue;
    std::printf("Vulkan %u: %s (%s, %s)%s%s\n", device.index, device.name.c_str(),
                device.type.c_str(), formatBytes(double(device.memoryBytes)).c_str(),
                device.usable ? "" : " cannot draw: ", device.reason.c_str());
  }

  // What --backend auto takes: CUDA, else a Vulkan GPU (never a software one), else the CPU.
  std::string whyNotVulkan;
  const int gpu = devices.empty() ? -1 : chooseVulkanDevice(devices, "", false, &whyNotVulkan);
  std::string chosen = "cpu";
  if (cuda) {
    chosen = "cuda";
  } else if (gpu >= 0) {
    chosen = "vulkan";
  }
  report["auto"] = chosen;
  if (print) {
    std::printf("--backend auto draws with: %s", chosen.c_str());
    if (chosen == "vulkan") std::printf(" on %s", devices[size_t(gpu)].name.c_str());
    std::printf("\n");
  }
}

}  // namespace pcv::app
