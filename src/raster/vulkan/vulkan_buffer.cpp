#include "vulkan_buffer.hpp"

#include <string>
#include <utility>

#include "pcv/core/error.hpp"
#include "vulkan_context.hpp"

namespace pcv::vk {

VulkanBuffer::VulkanBuffer(VulkanContext& context, uint64_t bytes, Kind kind, const char* what)
    : device_(context.device()), bytes_(bytes) {
  if (bytes > context.maxAllocationBytes()) {
    throw OutOfMemoryError(std::string("the Vulkan device cannot hold ") + what + ": " +
                           std::to_string(bytes) + " bytes in one allocation, at most " +
                           std::to_string(context.maxAllocationBytes()));
  }
  const uint64_t size = bytes < 16 ? 16 : bytes;  // Vulkan has no empty buffers
  VkBufferUsageFlags usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                             VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                             VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
  const VkExternalMemoryBufferCreateInfo external{
      .sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO,
      .handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT};
  const VkBufferCreateInfo info{.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                                .pNext = kind == Kind::Exported ? &external : nullptr,
                                .size = size,
                                .usage = usage,
                                .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
  check(vkCreateBuffer(device_, &info, nullptr, &buffer_), what);
  try {
    VkMemoryRequirements requirements{};
    vkGetBufferMemoryRequirements(device_, buffer_, &requirements);
    uint32_t type = 0;
    if (kind == Kind::Device || kind == Kind::Exported) {
      type = context.memoryType(requirements.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    } else {
      const VkMemoryPropertyFlags visible =
          VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
      try {
        // Reads from cached memory run at host speed; writes are fine either way.
        type = context.memoryType(requirements.memoryTypeBits,
                                  kind == Kind::Readback
                                      ? visible | VK_MEMORY_PROPERTY_HOST_CACHED_BIT
                                      : visible);
      } catch (const OutOfMemoryError&) {
        type = context.memoryType(requirements.memoryTypeBits, visible);
      }
    }
    const VkExportMemoryAllocateInfo exportInfo{
        .sType = VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO,
        .handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT};
    const VkMemoryAllocateFlagsInfo flags{.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO,
                                          .pNext = kind == Kind::Exported ? &exportInfo : nullptr,
                                          .flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT};
    const VkMemoryAllocateInfo allocate{.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                        .pNext = &flags,
                                        .allocationSize = requirements.size,
                                        .memoryTypeIndex = type};
    const VkResult allocated = vkAllocateMemory(device_, &allocate, nullptr, &memory_);
    if (allocated == VK_ERROR_OUT_OF_DEVICE_MEMORY || allocated == VK_ERROR_OUT_OF_HOST_MEMORY) {
      throw OutOfMemoryError(std::string("not enough Vulkan device memory for ") + what + ": " +
                             std::to_string(bytes) + " bytes; " +
                             std::to_string(context.freeDeviceMemory()) + " bytes free");
    }
    check(allocated, what);
    allocationBytes_ = requirements.size;
    check(vkBindBufferMemory(device_, buffer_, memory_, 0), what);
    const VkBufferDeviceAddressInfo addressInfo{
        .sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO, .buffer = buffer_};
    address_ = vkGetBufferDeviceAddress(device_, &addressInfo);
    // Upload and readback buffers stay mapped; device-local memory (exported too) never is.
    if (kind == Kind::Upload || kind == Kind::Readback) {
      check(vkMapMemory(device_, memory_, 0, VK_WHOLE_SIZE, 0, &mapped_), what);
    }
  } catch (...) {
    release();
    throw;
  }
}

int VulkanBuffer::exportFd() const {
  auto getFd = reinterpret_cast<PFN_vkGetMemoryFdKHR>(vkGetDeviceProcAddr(device_, "vkGetMemoryFdKHR"));
  if (!getFd) throw UnavailableError("the Vulkan device exports no memory (VK_KHR_external_memory_fd)");
  const VkMemoryGetFdInfoKHR info{.sType = VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR,
                                  .memory = memory_,
                                  .handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT};
  int fd = -1;
  check(getFd(device_, &info, &fd), "to export a frame's memory");
  return fd;
}

VulkanBuffer::~VulkanBuffer() {
  release();
}

void VulkanBuffer::release() {
  if (device_ == VK_NULL_HANDLE) return;
  if (buffer_) vkDestroyBuffer(device_, buffer_, nullptr);
  if (memory_) vkFreeMemory(device_, memory_, nullptr);  // unmaps too
  buffer_ = VK_NULL_HANDLE;
  memory_ = VK_NULL_HANDLE;
  mapped_ = nullptr;
  address_ = 0;
  bytes_ = 0;
  allocationBytes_ = 0;
}

VulkanBuffer::VulkanBuffer(VulkanBuffer&& other) noexcept {
  *this = std::move(other);
}

VulkanBuffer& VulkanBuffer::operator=(VulkanBuffer&& other) noexcept {
  if (this == &other) return *this;
  release();
  device_ = std::exchange(other.device_, VK_NULL_HANDLE);
  buffer_ = std::exchange(other.buffer_, VK_NULL_HANDLE);
  memory_ = std::exchange(other.memory_, VK_NULL_HANDLE);
  bytes_ = std::exchange(other.bytes_, 0);
  allocationBytes_ = std::exchange(other.allocationBytes_, 0);
  address_ = std::exchange(other.address_, 0);
  mapped_ = std::exchange(other.mapped_, nullptr);
  return *this;
}

}  // namespace pcv::vk
