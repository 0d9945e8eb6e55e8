#include "compute_kernel.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "pcv/core/error.hpp"
#include "vulkan_context.hpp"

namespace pcv::vk {

namespace {

constexpr uint32_t kSpirvMagic = 0x07230203u;

/// The SPIR-V of shader `name` from $PCV_VULKAN_SHADER_LOAD/NAME.spv where that file exists (a
/// changed shader tried without building pcv again), else empty. Throws Error for a file that
/// is no SPIR-V module.
std::vector<uint32_t> spirvFromFolder(const std::string& name) {
  const char* folder = std::getenv("PCV_VULKAN_SHADER_LOAD");
  if (!folder || !*folder) return {};
  const std::string path = std::string(folder) + "/" + name + ".spv";
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return {};
  const std::streamoff bytes = in.tellg();
  std::vector<uint32_t> words(size_t(bytes > 0 ? bytes : 0) / 4);
  in.seekg(0);
  in.read(reinterpret_cast<char*>(words.data()), std::streamsize(words.size() * 4));
  if (!in || bytes % 4 != 0 || words.empty() || words[0] != kSpirvMagic) {
    throw Error(path +
                ": not a SPIR-V module (expected a whole number of 32-bit words, the "
                "first 0x07230203)");
  }
  std::fprintf(stderr, "pcv: the Vulkan shader %s from %s\n", name.c_str(), path.c_str());
  return words;
}

}  // namespace

ComputeKernel::ComputeKernel(VkDevice device, std::span<const uint32_t> builtIn, const char* name,
                             bool captureStatistics, ShaderConstants constants)
    : device_(device), name_(name), statistics_(captureStatistics) {
  const std::string what = std::string("to load the shader ") + name;
  const std::vector<uint32_t> loaded = spirvFromFolder(name_);
  const std::span<const uint32_t> spirv = loaded.empty() ? builtIn : std::span(loaded);
  const VkShaderModuleCreateInfo moduleInfo{.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                            .codeSize = spirv.size_bytes(),
                                            .pCode = spirv.data()};
  check(vkCreateShaderModule(device_, &moduleInfo, nullptr, &module_), what.c_str());
  const VkPushConstantRange push{.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
                                 .offset = 0,
                                 .size = sizeof(VkDeviceAddress)};
  const VkPipelineLayoutCreateInfo layoutInfo{
      .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
      .pushConstantRangeCount = 1,
      .pPushConstantRanges = &push};
  VkResult result = vkCreatePipelineLayout(device_, &layoutInfo, nullptr, &layout_);
  if (result == VK_SUCCESS) {
    const VkBool32 newtonReciprocalExact = constants.newtonReciprocalExact ? VK_TRUE : VK_FALSE;
    const VkSpecializationMapEntry entry{.constantID = 0, .offset = 0, .size = sizeof(VkBool32)};
    const VkSpecializationInfo specialization{.mapEntryCount = 1,
                                              .pMapEntries = &entry,
                                              .dataSize = sizeof newtonReciprocalExact,
                                              .pData = &newtonReciprocalExact};
    const VkComputePipelineCreateInfo pipelineInfo{
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .flags = captureStatistics
                     ? VkPipelineCreateFlags(
                           VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR |
                           (dumpDirectory()
                                ? VkPipelineCreateFlags(
                                      VK_PIPELINE_CREATE_CAPTURE_INTERNAL_REPRESENTATIONS_BIT_KHR)
                                : VkPipelineCreateFlags(0)))
                     : 0u,
        .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                  .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                  .module = module_,
                  .pName = "main",
                  .pSpecializationInfo = &specialization},
        .layout = layout_};
    result = vkCreateComputePipelines(device_, VK_NULL_HANDLE, 1, &pipelineInfo, nullptr,
                                      &pipeline_);
  }
  if (result != VK_SUCCESS) {
    if (layout_) vkDestroyPipelineLayout(device_, layout_, nullptr);
    vkDestroyShaderModule(device_, module_, nullptr);
    check(result, what.c_str());
  }
  if (captureStatistics && dumpDirectory()) dumpInternalRepresentations(dumpDirectory());
}

const char* ComputeKernel::dumpDirectory() {
  const char* directory = std::getenv("PCV_VULKAN_SHADER_DUMP");
  return directory && *directory ? directory : nullptr;
}

void ComputeKernel::dumpInternalRepresentations(const std::string& directory) const {
  const auto representations =
      reinterpret_cast<PFN_vkGetPipelineExecutableInternalRepresentationsKHR>(
          vkGetDeviceProcAddr(device_, "vkGetPipelineExecutableInternalRepresentationsKHR"));
  if (!representations) return;
  for (const VkPipelineExecutableInfoKHR& executable : executables()) {
    const uint32_t e = executable.executableIndex;
    uint32_t count = 0;
    if (representations(device_, &executable, &count, nullptr) != VK_SUCCESS) continue;
    std::vector<VkPipelineExecutableInternalRepresentationKHR> found(
        count, {.sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INTERNAL_REPRESENTATION_KHR});
    if (representations(device_, &executable, &count, found.data()) != VK_SUCCESS) continue;
    // The second call fills in the data once the sizes are known.
    std::vector<std::vector<char>> data(count);
    for (uint32_t r = 0; r < count; ++r) {
      data[r].resize(found[r].dataSize);
      found[r].pData = data[r].data();
    }
    if (representations(device_, &executable, &count, found.data()) != VK_SUCCESS) continue;
    for (uint32_t r = 0; r < count; ++r) {
      std::string file = directory + "/" + name_ + "." + std::to_string(e) + "." +
                         std::to_string(r) + (found[r].isText ? ".txt" : ".bin");
      std::ofstream out(file, std::ios::binary);
      out.write(data[r].data(), std::streamsize(found[r].dataSize));
    }
  }
}

ComputeKernel::~ComputeKernel() {
  vkDestroyPipeline(device_, pipeline_, nullptr);
  vkDestroyPipelineLayout(device_, layout_, nullptr);
  vkDestroyShaderModule(device_, module_, nullptr);
}

std::string ComputeKernel::statistics() const {
  if (!statistics_) return {};
  const auto statistics = reinterpret_cast<PFN_vkGetPipelineExecutableStatisticsKHR>(
      vkGetDeviceProcAddr(device_, "vkGetPipelineExecutableStatisticsKHR"));
  const std::vector<VkPipelineExecutableInfoKHR> listed = executables();
  if (!statistics || listed.empty()) return {};
  std::string out = name_ + ":";
  for (const VkPipelineExecutableInfoKHR& executable : listed) {
    uint32_t count = 0;
    if (statistics(device_, &executable, &count, nullptr) != VK_SUCCESS) continue;
    std::vector<VkPipelineExecutableStatisticKHR> values(
        count, {.sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR});
    if (statistics(device_, &executable, &count, values.data()) != VK_SUCCESS) continue;
    for (const VkPipelineExecutableStatisticKHR& v : values) {
      std::string value;
      switch (v.format) {
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR:
          value = v.value.b32 ? "yes" : "no";
          break;
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR:
          value = std::to_string(v.value.i64);
          break;
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR:
          value = std::to_string(v.value.u64);
          break;
        default:
          value = std::to_string(v.value.f64);
          break;
      }
      out.append(out.back() == ':' ? " " : ", ").append(v.name).append(" ").append(value);
    }
  }
  return out;
}

std::vector<VkPipelineExecutableInfoKHR> ComputeKernel::executables() const {
  const auto properties = reinterpret_cast<PFN_vkGetPipelineExecutablePropertiesKHR>(
      vkGetDeviceProcAddr(device_, "vkGetPipelineExecutablePropertiesKHR"));
  if (!properties) return {};
  const VkPipelineInfoKHR pipelineInfo{.sType = VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR,
                                       .pipeline = pipeline_};
  uint32_t count = 0;
  if (properties(device_, &pipelineInfo, &count, nullptr) != VK_SUCCESS) return {};
  std::vector<VkPipelineExecutableInfoKHR> out;
  for (uint32_t e = 0; e < count; ++e) {
    out.push_back({.sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR,
                   .pipeline = pipeline_,
                   .executableIndex = e});
  }
  return out;
}

void ComputeKernel::bind(VkCommandBuffer commands, VkDeviceAddress params) const {
  vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_);
  vkCmdPushConstants(commands, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof params, &params);
}

void ComputeKernel::recordPerItem(VkCommandBuffer commands, VkDeviceAddress params,
                                  uint64_t count) const {
  if (count == 0) return;
  constexpr uint64_t kRow = 65535;
  bind(commands, params);
  const uint64_t rows = (count + kRow - 1) / kRow;
  vkCmdDispatch(commands, uint32_t(rows == 1 ? count : kRow), uint32_t(rows), 1);
}

void ComputeKernel::recordPerPixel(VkCommandBuffer commands, VkDeviceAddress params, int width,
                                   int height) const {
  if (width <= 0 || height <= 0) return;
  bind(commands, params);
  vkCmdDispatch(commands, uint32_t((width + 15) / 16), uint32_t((height + 15) / 16), 1);
}

void computeBarrier(VkCommandBuffer commands) {
  const VkMemoryBarrier barrier{.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                                .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT |
                                                 VK_ACCESS_TRANSFER_WRITE_BIT,
                                .dstAccessMask = VK_ACCESS_SHADER_READ_BIT |
                                                 VK_ACCESS_SHADER_WRITE_BIT |
                                                 VK_ACCESS_TRANSFER_READ_BIT |
                                                 VK_ACCESS_TRANSFER_WRITE_BIT};
  vkCmdPipelineBarrier(commands,
                       VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                       VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1,
                       &barrier, 0, nullptr, 0, nullptr);
}

}  // namespace pcv::vk
