/// @brief The Vulkan compute backend: the compact method and the quality pipeline on any GPU
/// with Vulkan 1.2 and 64-bit buffer atomics, drawing the CPU backend's pixels.
#pragma once

#include <memory>
#include <string>

#include "../raster_backend.hpp"

namespace pcv {

/// `device`: "" for the best GPU, an index or part of a name (pcv info --devices); a software
/// device is taken only with allowSoftware (and then for "" only when it is the only one).
/// `slicePoints`: points per slice of the pool's per-point arrays (a power of two), 0 for the
/// largest the device allows; tests make it small to cut small sets. Throws UnavailableError.
std::unique_ptr<RasterBackend> createVulkanBackend(PointStorage storage, const std::string& device,
                                                   bool allowSoftware, uint64_t slicePoints = 0);

}  // namespace pcv
