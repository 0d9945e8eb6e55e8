#include "pcv/raster/vulkan_devices.hpp"

#include <vulkan/vulkan.h>

#include <algorithm>
#include <cctype>
#include <charconv>

#include "pcv/core/text_case.hpp"
#include "vulkan_context.hpp"

namespace pcv {
namespace {

const char* typeName(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "software";
    default: return "other";
  }
}

/// Lower ranks are taken first by a choice of "" (auto).
int typeRank(const VulkanDeviceInfo& device) {
  if (device.type == "discrete") return 0;
  if (device.type == "integrated") return 1;
  if (device.type == "virtual") return 2;
  if (device.software) return 4;
  return 3;
}

/// Why the backend cannot draw on the device, or "" when it can.
std::string missingFeature(VkPhysicalDevice physical, uint32_t apiVersion) {
  if (apiVersion < VK_API_VERSION_1_2) return "it offers Vulkan 1.1 or older; pcv needs 1.2";
  VkPhysicalDeviceVulkan12Features features12{
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  VkPhysicalDeviceFeatures2 features{.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                     .pNext = &features12};
  vkGetPhysicalDeviceFeatures2(physical, &features);
  if (!features.features.shaderInt64) return "it has no 64-bit integers in shaders";
  if (!features12.shaderBufferInt64Atomics) return "it has no 64-bit buffer atomics";
  if (!features12.bufferDeviceAddress) return "it has no buffer device addresses";
  if (!features12.scalarBlockLayout) return "it has no scalar block layout";
  uint32_t families = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(physical, &families, nullptr);
  std::vector<VkQueueFamilyProperties> properties(families);
  vkGetPhysicalDeviceQueueFamilyProperties(physical, &families, properties.data());
  const bool compute = std::any_of(properties.begin(), properties.end(), [](const auto& family) {
    return (family.queueFlags & VK_QUEUE_COMPUTE_BIT) != 0;
  });
  if (!compute) return "it has no compute queue";
  return "";
}

}  // namespace

namespace vk {

VulkanDeviceInfo describeDevice(VkPhysicalDevice physical, uint32_t index) {
  VkPhysicalDeviceProperties properties{};
  vkGetPhysicalDeviceProperties(physical, &properties);
  VkPhysicalDeviceMemoryProperties memory{};
  vkGetPhysicalDeviceMemoryProperties(physical, &memory);
  VulkanDeviceInfo info;
  info.index = index;
  info.name = properties.deviceName;
  info.type = typeName(properties.deviceType);
  info.software = properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
  info.apiVersion = properties.apiVersion;
  for (uint32_t heap = 0; heap < memory.memoryHeapCount; ++heap) {
    if (memory.memoryHeaps[heap].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
      info.memoryBytes += memory.memoryHeaps[heap].size;
  }
  info.reason = missingFeature(physical, properties.apiVersion);
  info.usable = info.reason.empty();
  return info;
}

std::vector<VkPhysicalDevice> physicalDevices(VkInstance instance) {
  uint32_t count = 0;
  check(vkEnumeratePhysicalDevices(instance, &count, nullptr), "listing the Vulkan devices");
  std::vector<VkPhysicalDevice> devices(count);
  check(vkEnumeratePhysicalDevices(instance, &count, devices.data()), "listing the Vulkan devices");
  devices.resize(count);
  return devices;
}

}  // namespace vk

std::vector<VulkanDeviceInfo> listVulkanDevices(std::string* error) {
  try {
    std::vector<VulkanDeviceInfo> devices;
    const std::vector<VkPhysicalDevice> physical = vk::physicalDevices(vk::processInstance());
    for (uint32_t i = 0; i < physical.size(); ++i)
      devices.push_back(vk::describeDevice(physical[i], i));
    if (devices.empty() && error) *error = "the Vulkan driver lists no device";
    return devices;
  } catch (const std::exception& e) {
    if (error) *error = e.what();
    return {};
  }
}

int chooseVulkanDevice(const std::vector<VulkanDeviceInfo>& devices, const std::string& choice,
                       bool allowSoftware, std::string* reason) {
  auto refuse = [&](std::string why) {
    if (reason) *reason = std::move(why);
    return -1;
  };
  if (devices.empty()) return refuse("no Vulkan device");
  if (!choice.empty()) {
    int found = -1;
    uint32_t number = 0;
    const auto [end, status] = std::from_chars(choice.data(), choice.data() + choice.size(), number);
    if (status == std::errc() && end == choice.data() + choice.size()) {
      if (number >= devices.size())
        return refuse("there is no Vulkan device " + choice + " (" +
                      std::to_string(devices.size()) + " found)");
      found = int(number);
    } else {
      const std::string wanted = lowerCase(choice);
      for (size_t i = 0; i < devices.size() && found < 0; ++i) {
        if (lowerCase(devices[i].name).find(wanted) != std::string::npos) found = int(i);
      }
      if (found < 0) return refuse("no Vulkan device's name contains '" + choice + "'");
    }
    const VulkanDeviceInfo& device = devices[size_t(found)];
    if (!device.usable) return refuse(device.name + " cannot draw: " + device.reason);
    return found;
  }
  int best = -1;
  for (size_t i = 0; i < devices.size(); ++i) {
    const VulkanDeviceInfo& device = devices[i];
    if (!device.usable || (device.software && !allowSoftware)) continue;
    if (best < 0 || typeRank(device) < typeRank(devices[size_t(best)])) best = int(i);
  }
  if (best >= 0) return best;
  for (const VulkanDeviceInfo& device : devices) {
    if (device.software && !allowSoftware) continue;
    return refuse(device.name + " cannot draw: " + device.reason);
  }
  return refuse("the only Vulkan devices draw on the CPU (" + devices.front().name + ")");
}

bool vulkanGpuAvailable(std::string* reason) {
  std::string error;
  const std::vector<VulkanDeviceInfo> devices = listVulkanDevices(&error);
  if (devices.empty()) {
    if (reason) *reason = error;
    return false;
  }
  return chooseVulkanDevice(devices, "", false, reason) >= 0;
}

}  // namespace pcv
