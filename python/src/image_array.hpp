/// @brief The images pcv.render and pcv.Renderer.render return: (height, width, 4) uint8 NumPy
/// arrays whose memory is the renderer's readback destination itself. The renderer writes the
/// rows top row first (on the GPU for the cuda backend) straight into memory taken from a
/// process-wide bounded pool (pinned where it draws with CUDA), and the array owns that memory
/// through a capsule that gives it back to the pool: no copy on the host.
#pragma once

#include <pybind11/numpy.h>

#include <cstdint>

#include "pcv/raster/host_image_pool.hpp"
#include "pcv/raster/render_target.hpp"
#include "pcv/raster/renderer.hpp"

namespace pcv::python {

/// Room for a width x height image that `renderer` reads back; needs no GIL.
HostImageBuffer imageBufferFor(const Renderer& renderer, int width, int height);

/// The target that draws into `buffer`, top row first.
RenderTarget topRowFirstTarget(const HostImageBuffer& buffer, int width, int height);

/// The (height, width, 4) uint8 RGBA array that owns `buffer`; with the GIL held.
pybind11::array_t<uint8_t> imageArray(HostImageBuffer buffer, int width, int height);

}  // namespace pcv::python
