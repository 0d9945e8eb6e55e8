/// @brief The Vulkan instance, device and queue the Vulkan backend draws with: device choice
/// (discrete before integrated, software devices only when asked or alone), the features the
/// shaders need, the validation layer when PCV_VULKAN_VALIDATION is set, and one-shot command
/// submission. RAII: the context frees everything it created.
#pragma once

#include <vulkan/vulkan.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "pcv/raster/vulkan_devices.hpp"

namespace pcv::vk {

/// Throws UnavailableError (device lost, loader or driver missing) or OutOfMemoryError for a
/// failed call, naming `what`.
void check(VkResult result, const char* what);

class VulkanContext {
 public:
  /// Opens the device `choice` names (vulkan_devices.hpp); with allowSoftware false a software
  /// device (lavapipe) is never taken. Throws UnavailableError saying why none could be.
  VulkanContext(const std::string& choice, bool allowSoftware);
  ~VulkanContext();
  VulkanContext(const VulkanContext&) = delete;
  VulkanContext& operator=(const VulkanContext&) = delete;

  VkDevice device() const { return device_; }
  VkPhysicalDevice physicalDevice() const { return physical_; }
  const VulkanDeviceInfo& info() const { return info_; }
  const VkPhysicalDeviceLimits& limits() const { return limits_; }
  /// Whether memory can be exported as a POSIX file descriptor (VK_KHR_external_memory_fd).
  bool hasExternalMemoryFd() const { return externalMemoryFd_; }
  /// Whether shaders may use 64-bit floats (enabled where the device has them).
  bool hasFloat64() const { return float64_; }
  /// Whether the driver reports its compiled pipelines' statistics (registers, shared memory:
  /// what decides how many workgroups a multiprocessor holds),
  /// VK_KHR_pipeline_executable_properties.
  bool reportsPipelineStatistics() const { return pipelineStatistics_; }
  /// The largest single allocation the driver allows (maxMemoryAllocationSize).
  uint64_t maxAllocationBytes() const { return maxAllocationBytes_; }

  /// A memory type with all of `required` among `allowed` (a memory requirement's bits), or
  /// throws OutOfMemoryError.
  uint32_t memoryType(uint32_t allowed, VkMemoryPropertyFlags required) const;
  /// Device-local memory not yet used, as far as the driver tells (VK_EXT_memory_budget), else
  /// the device-local heaps' size.
  uint64_t freeDeviceMemory() const;

  /// Records commands with `record`, submits them and waits for them to finish.
  void run(const std::function<void(VkCommandBuffer)>& record);

  /// Work waiting for the next submission: copies queued by a transfer, recorded at the start
  /// of every run() (before what it records, with a barrier between), so that many small
  /// uploads share one submission and one wait instead of taking one each.
  class QueuedWork {
   public:
    virtual ~QueuedWork() = default;
    /// Records the queued commands; false when there were none.
    virtual bool record(VkCommandBuffer commands) = 0;
    /// The commands recorded last have run.
    virtual void completed() = 0;
  };
  /// `work` is recorded by every run() from now on, until removeQueuedWork(`work`).
  void addQueuedWork(QueuedWork& work) { queued_.push_back(&work); }
  void removeQueuedWork(QueuedWork& work);
  /// Nanoseconds per timestamp tick; 0 when the queue has no timestamps.
  double timestampPeriodNs() const { return timestampPeriodNs_; }

 private:
  /// Waits for the fence of the work run() submitted.
  void waitForWork();
  /// How long waitForWork() polls before it sleeps: longer than most frames, short enough that
  /// a long upload costs a core no more than this.
  static constexpr std::chrono::microseconds kFencePoll{2000};
  void release();  // what the constructor made so far, or everything

  VkInstance instance_ = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  VkCommandPool commandPool_ = VK_NULL_HANDLE;
  VkCommandBuffer commands_ = VK_NULL_HANDLE;
  VkFence fence_ = VK_NULL_HANDLE;
  VkPhysicalDeviceMemoryProperties memory_{};
  VkPhysicalDeviceLimits limits_{};
  VulkanDeviceInfo info_;
  bool memoryBudget_ = false;
  double timestampPeriodNs_ = 0.0;
  uint64_t maxAllocationBytes_ = 0;
  bool float64_ = false;
  bool externalMemoryFd_ = false;
  bool pipelineStatistics_ = false;
  std::vector<QueuedWork*> queued_;
};

/// The process's instance, made at the first call and never destroyed (validation as the
/// environment asks): device listings use it, and while it lives no other instance is the last.
VkInstance processInstance();
/// An instance of the caller's own, for a context (validation as the environment asks).
VkInstance createInstance(bool& validation);
/// The instance's physical devices, in the driver's order (vulkan_devices.cpp).
std::vector<VkPhysicalDevice> physicalDevices(VkInstance instance);
/// What pcv knows of device `index`, with the reason it cannot draw (vulkan_devices.cpp).
VulkanDeviceInfo describeDevice(VkPhysicalDevice physical, uint32_t index);

}  // namespace pcv::vk
