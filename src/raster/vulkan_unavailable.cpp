// The Vulkan device queries of a build without the Vulkan backend.
#include "pcv/raster/vulkan_devices.hpp"

namespace pcv {

std::vector<VulkanDeviceInfo> listVulkanDevices(std::string* error) {
  if (error) *error = "pcv was built without Vulkan";
  return {};
}

int chooseVulkanDevice(const std::vector<VulkanDeviceInfo>&, const std::string&, bool,
                       std::string* reason) {
  if (reason) *reason = "pcv was built without Vulkan";
  return -1;
}

bool vulkanGpuAvailable(std::string* reason) {
  if (reason) *reason = "pcv was built without Vulkan";
  return false;
}

}  // namespace pcv
