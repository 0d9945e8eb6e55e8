/// @brief The Vulkan compute backend: the compact method and the quality pipeline on any GPU
/// with Vulkan 1.2 and 64-bit buffer atomics, drawing the CPU backend's pixels.
#pragma once

#include <memory>
#include <string>

#include "../raster_backend.hpp"

namespace pcv {

/// `device`: "" for the best GPU (a software device only with allowSoftware, when it is the
/// only one), an index or part of a name (pcv info --devices). Throws UnavailableError.
std::unique_ptr<RasterBackend> createVulkanBackend(PointStorage storage, const std::string& device,
                                                   bool allowSoftware);

}  // namespace pcv
