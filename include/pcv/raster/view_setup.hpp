/// @brief Turns a camera and an image size into the ViewTransform the kernels read.
#pragma once

#include <glm/glm.hpp>

#include "pcv/core/camera.hpp"
#include "pcv/raster/projection.hpp"

namespace pcv {

/// The view of `camera` for a width x height image, for points stored as offsets from `origin`.
ViewTransform makeViewTransform(const Camera& camera, int width, int height,
                                const glm::dvec3& origin = glm::dvec3(0.0));

}  // namespace pcv
