/// @brief The noise filter's cubes over the points' extent, checked once for the CPU filter and
/// its CUDA twin.
#pragma once

#include <glm/vec3.hpp>

#include "pcv/process/noise_filter.hpp"

namespace pcv::process {

/// Throws InputError when cubes of `settings.radius` over [low, high] (the finite points'
/// extent) would need more than kCubeAxisCount steps on an axis.
void checkNoiseCubes(const glm::dvec3& low, const glm::dvec3& high,
                     const NoiseFilterSettings& settings);

}  // namespace pcv::process
