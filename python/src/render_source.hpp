/// @brief What pcv.render accepts as its source, as the session layer's SceneSources: a path,
/// a list of paths, a dict as pcv.read returns it, an N x 3 array of positions with optional
/// colours (points in memory, which the scene reads whole beside any files), or such arrays in
/// CUDA memory (drawn there, without a copy through the host).
#pragma once

#include <pybind11/pybind11.h>

#include <memory>

#include "device_arrays.hpp"
#include "pcv/session/scene_sources.hpp"

namespace pcv::python {

/// The sources, and the CUDA arrays they hold exported while they are drawn (destroy with the
/// GIL held).
struct RenderSource {
  SceneSources sources;
  std::unique_ptr<CudaPointArrays> cudaArrays;
};

/// Throws InputError (a pcv.InputError in Python) for a source of no known kind.
RenderSource renderSourceFrom(pybind11::handle source, pybind11::handle rgb);

}  // namespace pcv::python
