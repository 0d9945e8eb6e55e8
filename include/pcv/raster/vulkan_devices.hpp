/// @brief The Vulkan devices of this machine as the Vulkan backend sees them: what
/// `pcv info --devices` lists, and how `--backend auto` and `--vulkan-device` choose.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace pcv {

struct VulkanDeviceInfo {
  uint32_t index = 0;           ///< the driver's order, what --vulkan-device N names
  std::string name;             ///< "NVIDIA H200", "llvmpipe (LLVM 15.0.6, 256 bits)"
  std::string type;             ///< "discrete", "integrated", "virtual", "software", "other"
  bool software = false;        ///< draws on the CPU (lavapipe): auto never takes it
  uint64_t memoryBytes = 0;     ///< the device-local heaps
  uint32_t apiVersion = 0;      ///< VK_MAKE_API_VERSION
  bool usable = false;          ///< has everything the backend needs
  std::string reason;           ///< when not usable: the one-line reason
};

/// The devices, in the driver's order; empty with `error` set when Vulkan itself is unusable
/// (no loader, no driver). Never throws.
std::vector<VulkanDeviceInfo> listVulkanDevices(std::string* error = nullptr);

/// The device `choice` names among `devices`: "" the best usable one (discrete before integrated
/// before virtual before others, software ones only with `allowSoftware` or... when no other
/// is usable and `allowSoftware`), a number its index, else the first whose name contains the
/// text (case-insensitive). Returns the index in `devices`, or -1 with `reason` saying why none.
int chooseVulkanDevice(const std::vector<VulkanDeviceInfo>& devices, const std::string& choice,
                       bool allowSoftware, std::string* reason);

/// True when this build has the Vulkan backend and a device `auto` would take (never a software
/// one); otherwise `reason` says why not.
bool vulkanGpuAvailable(std::string* reason = nullptr);

}  // namespace pcv
