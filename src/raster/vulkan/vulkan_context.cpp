#include "vulkan_context.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "pcv/core/error.hpp"

namespace pcv::vk {

namespace {

constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";

/// PCV_VULKAN_VALIDATION=1 runs every Vulkan call through the validation layer (with its
/// synchronization checks), and a report
/// of a warning or an error ends the process: the test suite runs the backend so, as
/// compute-sanitizer runs the CUDA one, and a report cannot pass unnoticed.
bool validationAsked() {
  const char* value = std::getenv("PCV_VULKAN_VALIDATION");
  return value != nullptr && value[0] != '\0' && std::strcmp(value, "0") != 0;
}

VKAPI_ATTR VkBool32 VKAPI_CALL reportValidation(
    VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT,
    const VkDebugUtilsMessengerCallbackDataEXT* data, void*) {
  if (severity < VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) return VK_FALSE;
  std::fprintf(stderr, "pcv: Vulkan validation: %s\n", data && data->pMessage ? data->pMessage : "");
  std::fflush(stderr);
  std::abort();
}

VkDebugUtilsMessengerCreateInfoEXT messengerInfo() {
  return {.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
          .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                             VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
          .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                         VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                         VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
          .pfnUserCallback = reportValidation};
}

bool layerPresent(const char* name) {
  uint32_t count = 0;
  if (vkEnumerateInstanceLayerProperties(&count, nullptr) != VK_SUCCESS) return false;
  std::vector<VkLayerProperties> layers(count);
  vkEnumerateInstanceLayerProperties(&count, layers.data());
  for (const VkLayerProperties& layer : layers) {
    if (std::strcmp(layer.layerName, name) == 0) return true;
  }
  return false;
}

bool deviceExtensionPresent(VkPhysicalDevice physical, const char* name) {
  uint32_t count = 0;
  vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> extensions(count);
  vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, extensions.data());
  for (const VkExtensionProperties& extension : extensions) {
    if (std::strcmp(extension.extensionName, name) == 0) return true;
  }
  return false;
}

}  // namespace

void check(VkResult result, const char* what) {
  if (result == VK_SUCCESS) return;
  const std::string context = std::string("Vulkan failed ") + what + ": ";
  switch (result) {
    case VK_ERROR_OUT_OF_HOST_MEMORY:
      throw OutOfMemoryError(context + "out of host memory");
    case VK_ERROR_OUT_OF_DEVICE_MEMORY:
      throw OutOfMemoryError(context + "out of device memory");
    case VK_ERROR_DEVICE_LOST:
      throw UnavailableError(context + "the device was lost");
    case VK_ERROR_INCOMPATIBLE_DRIVER:
      throw UnavailableError(context + "no Vulkan driver is installed (or none supports 1.2)");
    case VK_ERROR_INITIALIZATION_FAILED:
      throw UnavailableError(context + "the driver could not start");
    case VK_ERROR_LAYER_NOT_PRESENT:
      throw UnavailableError(context + "the validation layer is not installed");
    default:
      throw UnavailableError(context + "error " + std::to_string(int(result)));
  }
}

namespace {

VkInstance makeInstance(bool& validation) {
  validation = validationAsked();
  if (validation && !layerPresent(kValidationLayer)) {
    throw UnavailableError(
        "PCV_VULKAN_VALIDATION is set but the Vulkan validation layer is not installed "
        "(Debian: vulkan-validationlayers)");
  }
  const VkApplicationInfo application{.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                                      .pApplicationName = "pcv",
                                      .pEngineName = "pcv",
                                      .apiVersion = VK_API_VERSION_1_2};
  const VkDebugUtilsMessengerCreateInfoEXT messenger = messengerInfo();
  // The synchronization checks too: hazards between copies and shaders of one submission (the
  // queued uploads share one with a frame), as racecheck and synccheck look for on CUDA.
  const VkValidationFeatureEnableEXT checks[] = {
      VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
  const VkValidationFeaturesEXT features{.sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT,
                                         .pNext = &messenger,
                                         .enabledValidationFeatureCount = 1,
                                         .pEnabledValidationFeatures = checks};
  const char* layers[] = {kValidationLayer};
  const char* extensions[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME,
                              VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME};
  const VkInstanceCreateInfo info{.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                                  .pNext = validation ? &features : nullptr,
                                  .pApplicationInfo = &application,
                                  .enabledLayerCount = validation ? 1u : 0u,
                                  .ppEnabledLayerNames = layers,
                                  .enabledExtensionCount = validation ? 2u : 0u,
                                  .ppEnabledExtensionNames = extensions};
  VkInstance instance = VK_NULL_HANDLE;
  check(vkCreateInstance(&info, nullptr, &instance), "to start");
  return instance;
}

}  // namespace

VkInstance processInstance() {
  // Made once and never destroyed: NVIDIA's driver terminates the process's EGL displays when
  // its last Vulkan instance is destroyed (eglMakeCurrent then fails with EGL_NOT_INITIALIZED),
  // so a renderer ending would end a GL context made before it. It stays reachable through this
  // static until exit, so leak checkers do not count it; where it cannot be made, each call
  // tries again and throws why.
  static const VkInstance kept = [] {
    bool validation = false;
    return makeInstance(validation);
  }();
  return kept;
}

VkInstance createInstance(bool& validation) {
  processInstance();  // so that the one made here is never the last
  return makeInstance(validation);
}

VulkanContext::VulkanContext(const std::string& choice, bool allowSoftware) {
  bool validation = false;
  instance_ = createInstance(validation);
  try {
    if (validation) {
      auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
          vkGetInstanceProcAddr(instance_, "vkCreateDebugUtilsMessengerEXT"));
      const VkDebugUtilsMessengerCreateInfoEXT info = messengerInfo();
      if (create) check(create(instance_, &info, nullptr, &messenger_), "to report validation");
    }
    const std::vector<VkPhysicalDevice> physical = physicalDevices(instance_);
    std::vector<VulkanDeviceInfo> devices;
    for (uint32_t i = 0; i < physical.size(); ++i) devices.push_back(describeDevice(physical[i], i));
    std::string reason;
    const int chosen = chooseVulkanDevice(devices, choice, allowSoftware, &reason);
    if (chosen < 0) throw UnavailableError("cannot use the vulkan backend: " + reason);
    if (!allowSoftware && devices[size_t(chosen)].software) {
      throw UnavailableError("cannot use the vulkan backend: " + devices[size_t(chosen)].name +
                             " draws on the CPU");
    }
    physical_ = physical[size_t(chosen)];
    info_ = devices[size_t(chosen)];

    VkPhysicalDeviceMaintenance3Properties maintenance3{
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES};
    VkPhysicalDeviceProperties2 properties2{
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &maintenance3};
    vkGetPhysicalDeviceProperties2(physical_, &properties2);
    const VkPhysicalDeviceProperties& properties = properties2.properties;
    limits_ = properties.limits;
    maxAllocationBytes_ = maintenance3.maxMemoryAllocationSize;
    vkGetPhysicalDeviceMemoryProperties(physical_, &memory_);

    uint32_t familyCount = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(physical_, &familyCount, nullptr);
    std::vector<VkQueueFamilyProperties> families(familyCount);
    vkGetPhysicalDeviceQueueFamilyProperties(physical_, &familyCount, families.data());
    uint32_t family = familyCount;
    for (uint32_t i = 0; i < familyCount && family == familyCount; ++i) {
      if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) family = i;
    }
    if (families[family].timestampValidBits != 0)
      timestampPeriodNs_ = double(properties.limits.timestampPeriod);

    const float priority = 1.0f;
    const VkDeviceQueueCreateInfo queueInfo{.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                            .queueFamilyIndex = family,
                                            .queueCount = 1,
                                            .pQueuePriorities = &priority};
    VkPhysicalDeviceVulkan12Features features12{
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
        .shaderBufferInt64Atomics = VK_TRUE,
        .scalarBlockLayout = VK_TRUE,
        .bufferDeviceAddress = VK_TRUE};
    VkPhysicalDeviceFeatures2 features{.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                       .pNext = &features12};
    features.features.shaderInt64 = VK_TRUE;
    VkPhysicalDeviceFeatures offered{};
    vkGetPhysicalDeviceFeatures(physical_, &offered);
    float64_ = offered.shaderFloat64 == VK_TRUE;
    features.features.shaderFloat64 = offered.shaderFloat64;
    std::vector<const char*> extensions;
    memoryBudget_ = deviceExtensionPresent(physical_, VK_EXT_MEMORY_BUDGET_EXTENSION_NAME);
    if (memoryBudget_) extensions.push_back(VK_EXT_MEMORY_BUDGET_EXTENSION_NAME);
    // Frames the viewer's GL imports (Renderer::exportImageMemory).
    externalMemoryFd_ = deviceExtensionPresent(physical_, VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME);
    if (externalMemoryFd_) extensions.push_back(VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME);
    // The compiled shaders' resource use, which `pcv bench` reports to explain their speed.
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR executableInfo{
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR,
        .pipelineExecutableInfo = VK_TRUE};
    pipelineStatistics_ =
        deviceExtensionPresent(physical_, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
    if (pipelineStatistics_) {
      extensions.push_back(VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
      executableInfo.pNext = features12.pNext;
      features12.pNext = &executableInfo;
    }
    const VkDeviceCreateInfo deviceInfo{.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                                        .pNext = &features,
                                        .queueCreateInfoCount = 1,
                                        .pQueueCreateInfos = &queueInfo,
                                        .enabledExtensionCount = uint32_t(extensions.size()),
                                        .ppEnabledExtensionNames = extensions.data()};
    check(vkCreateDevice(physical_, &deviceInfo, nullptr, &device_), "to open the device");
    vkGetDeviceQueue(device_, family, 0, &queue_);

    const VkCommandPoolCreateInfo poolInfo{
        .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
        .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
        .queueFamilyIndex = family};
    check(vkCreateCommandPool(device_, &poolInfo, nullptr, &commandPool_), "to make a command pool");
    const VkCommandBufferAllocateInfo commandInfo{
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
        .commandPool = commandPool_,
        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
        .commandBufferCount = 1};
    check(vkAllocateCommandBuffers(device_, &commandInfo, &commands_), "to make a command buffer");
    const VkFenceCreateInfo fenceInfo{.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    check(vkCreateFence(device_, &fenceInfo, nullptr, &fence_), "to make a fence");
  } catch (...) {
    release();
    throw;
  }
}

VulkanContext::~VulkanContext() {
  release();
}

void VulkanContext::release() {
  if (device_) {
    vkDeviceWaitIdle(device_);
    if (fence_) vkDestroyFence(device_, fence_, nullptr);
    if (commandPool_) vkDestroyCommandPool(device_, commandPool_, nullptr);
    vkDestroyDevice(device_, nullptr);
  }
  if (messenger_) {
    auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance_, "vkDestroyDebugUtilsMessengerEXT"));
    if (destroy) destroy(instance_, messenger_, nullptr);
  }
  if (instance_) vkDestroyInstance(instance_, nullptr);
  device_ = VK_NULL_HANDLE;
  messenger_ = VK_NULL_HANDLE;
  instance_ = VK_NULL_HANDLE;
  fence_ = VK_NULL_HANDLE;
  commandPool_ = VK_NULL_HANDLE;
}

uint32_t VulkanContext::memoryType(uint32_t allowed, VkMemoryPropertyFlags required) const {
  for (uint32_t i = 0; i < memory_.memoryTypeCount; ++i) {
    if ((allowed & (1u << i)) && (memory_.memoryTypes[i].propertyFlags & required) == required)
      return i;
  }
  throw OutOfMemoryError("the Vulkan device " + info_.name + " has no memory of the kind needed");
}

uint64_t VulkanContext::freeDeviceMemory() const {
  uint64_t free = 0;
  if (memoryBudget_) {
    VkPhysicalDeviceMemoryBudgetPropertiesEXT budget{
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_BUDGET_PROPERTIES_EXT};
    VkPhysicalDeviceMemoryProperties2 properties{
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_PROPERTIES_2, .pNext = &budget};
    vkGetPhysicalDeviceMemoryProperties2(physical_, &properties);
    for (uint32_t heap = 0; heap < properties.memoryProperties.memoryHeapCount; ++heap) {
      if (!(properties.memoryProperties.memoryHeaps[heap].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT))
        continue;
      if (budget.heapBudget[heap] > budget.heapUsage[heap])
        free += budget.heapBudget[heap] - budget.heapUsage[heap];
    }
    return free;
  }
  return info_.memoryBytes;
}

void VulkanContext::run(const std::function<void(VkCommandBuffer)>& record) {
  check(vkResetCommandBuffer(commands_, 0), "to reset its commands");
  const VkCommandBufferBeginInfo begin{.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                       .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
  check(vkBeginCommandBuffer(commands_, &begin), "to record commands");
  bool queued = false;
  for (QueuedWork* work : queued_) queued = work->record(commands_) || queued;
  if (queued) {
    // The queued copies land before anything recorded after them reads or writes there.
    const VkMemoryBarrier barrier{
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
        .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
        .dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT |
                         VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT};
    vkCmdPipelineBarrier(commands_, VK_PIPELINE_STAGE_TRANSFER_BIT,
                         VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0,
                         1, &barrier, 0, nullptr, 0, nullptr);
  }
  record(commands_);
  check(vkEndCommandBuffer(commands_), "to record commands");
  const VkSubmitInfo submit{.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                            .commandBufferCount = 1,
                            .pCommandBuffers = &commands_};
  check(vkQueueSubmit(queue_, 1, &submit, fence_), "to submit work");
  waitForWork();
  check(vkResetFences(device_, 1, &fence_), "to reset a fence");
  if (queued) {
    for (QueuedWork* work : queued_) work->completed();
  }
}

void VulkanContext::waitForWork() {
  // A frame takes a fraction of a millisecond, and a thread woken from vkWaitForFences comes
  // back tens of microseconds after the fence (0.04 ms of the viewer's hand-over on NVIDIA):
  // the fence is polled for a while first, as CUDA's default schedule spins on its stream. Not
  // on a software device, whose work needs the cores the poll would take.
  if (!info_.software) {
    const auto giveUp = std::chrono::steady_clock::now() + kFencePoll;
    VkResult status = VK_NOT_READY;
    while ((status = vkGetFenceStatus(device_, fence_)) == VK_NOT_READY &&
           std::chrono::steady_clock::now() < giveUp) {
    }
    if (status == VK_SUCCESS) return;
    if (status != VK_NOT_READY) check(status, "while drawing");
  }
  check(vkWaitForFences(device_, 1, &fence_, VK_TRUE, UINT64_MAX), "while drawing");
}

void VulkanContext::removeQueuedWork(QueuedWork& work) {
  queued_.erase(std::remove(queued_.begin(), queued_.end(), &work), queued_.end());
}

}  // namespace pcv::vk
