/// @brief A Vulkan buffer and the memory it owns (RAII, move-only): device-local arrays the
/// shaders reach through their device address, and host-visible buffers to upload and read back.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>

namespace pcv::vk {

class VulkanContext;

class VulkanBuffer {
 public:
  enum class Kind {
    Device,    ///< device-local, read and written by shaders and copies
    Upload,    ///< host-visible, written by the host, read by copies and shaders
    Readback,  ///< host-visible, written by copies, read by the host
    Exported,  ///< device-local, exportable as an opaque file descriptor (exportFd)
  };

  VulkanBuffer() = default;
  /// Throws OutOfMemoryError naming `what` and the sizes when the device cannot hold it.
  VulkanBuffer(VulkanContext& context, uint64_t bytes, Kind kind, const char* what);
  ~VulkanBuffer();
  VulkanBuffer(VulkanBuffer&& other) noexcept;
  VulkanBuffer& operator=(VulkanBuffer&& other) noexcept;
  VulkanBuffer(const VulkanBuffer&) = delete;
  VulkanBuffer& operator=(const VulkanBuffer&) = delete;

  explicit operator bool() const { return buffer_ != VK_NULL_HANDLE; }
  VkBuffer handle() const { return buffer_; }
  uint64_t bytes() const { return bytes_; }
  /// The shaders' address of the first byte (0 for an empty buffer).
  VkDeviceAddress address() const { return address_; }
  /// Host pointer of Upload and Readback buffers.
  void* mapped() const { return mapped_; }
  /// The size of the memory behind the buffer (at least bytes()).
  uint64_t allocationBytes() const { return allocationBytes_; }
  /// A new file descriptor of an Exported buffer's memory, owned by the caller.
  int exportFd() const;

 private:
  void release();

  VkDevice device_ = VK_NULL_HANDLE;
  VkBuffer buffer_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  uint64_t bytes_ = 0;
  uint64_t allocationBytes_ = 0;
  VkDeviceAddress address_ = 0;
  void* mapped_ = nullptr;
};

}  // namespace pcv::vk
