/// @brief One compute shader of the Vulkan backend, ready to record (RAII over its module,
/// pipeline layout and pipeline). Every kernel takes one push constant, the device address of
/// the frame's parameters (shaders/frame_params.glsl), and no descriptor sets.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace pcv::vk {

/// The specialization constants a kernel's pipeline is made with (the shaders that include
/// shaders/float_math.glsl declare them; the others ignore them).
struct ShaderConstants {
  /// kNewtonReciprocalExact: the reciprocal probe found one Newton step from the device's
  /// quotient exact over the view range (reciprocal_probe.hpp).
  bool newtonReciprocalExact = false;
};

class ComputeKernel {
 public:
  /// With `captureStatistics` (the device offers VK_KHR_pipeline_executable_properties) the
  /// driver keeps the compiled pipeline's statistics for statistics(), and where the
  /// environment names a folder in PCV_VULKAN_SHADER_DUMP, the compiled code the driver shows
  /// is written there (NAME.EXECUTABLE.N.txt), to see what a shader became on a device. Where
  /// PCV_VULKAN_SHADER_LOAD names a folder holding NAME.spv, that SPIR-V is used instead of the
  /// built-in one (a changed shader timed without building pcv again; said on stderr).
  ComputeKernel(VkDevice device, std::span<const uint32_t> builtIn, const char* name,
                bool captureStatistics = false, ShaderConstants constants = {});
  ~ComputeKernel();
  ComputeKernel(const ComputeKernel&) = delete;
  ComputeKernel& operator=(const ComputeKernel&) = delete;

  /// One workgroup per item: `count` workgroups in rows of at most 65535 (the limit every
  /// device offers); the shader finds its item with linearGroupIndex().
  void recordPerItem(VkCommandBuffer commands, VkDeviceAddress params, uint64_t count) const;
  /// 16 x 16 workgroups over a width x height image.
  void recordPerPixel(VkCommandBuffer commands, VkDeviceAddress params, int width,
                      int height) const;

  /// "NAME: STATISTIC VALUE, ..." as the driver reports the compiled pipeline (registers,
  /// shared memory, ...); empty where it was not asked to capture them.
  std::string statistics() const;

 private:
  void bind(VkCommandBuffer commands, VkDeviceAddress params) const;
  /// The compiled pipeline's executables, as VK_KHR_pipeline_executable_properties lists them.
  std::vector<VkPipelineExecutableInfoKHR> executables() const;
  static const char* dumpDirectory();
  void dumpInternalRepresentations(const std::string& directory) const;

  VkDevice device_;
  std::string name_;
  bool statistics_ = false;
  VkShaderModule module_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkPipeline pipeline_ = VK_NULL_HANDLE;
};

/// Makes the writes of the commands before visible to the shaders and copies after.
void computeBarrier(VkCommandBuffer commands);

}  // namespace pcv::vk
