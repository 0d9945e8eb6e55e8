/// @brief Whether a Vulkan device's fma() rounds once. GLSL leaves it open, and some devices
/// (lavapipe) multiply and add with two roundings; the backend's pixels match the CPU backend's
/// only with one, so such devices get the shaders that emulate it (vulkan_shaders.hpp).
#pragma once

namespace pcv::vk {

class VulkanContext;

/// Runs a one-thread shader on inputs whose fused and unfused results differ.
bool deviceFusesFma(VulkanContext& context);

}  // namespace pcv::vk
