/// @brief What pcv.render accepts as its source, as the session layer's SceneSources: a path,
/// a list of paths, a dict as pcv.read returns it, or an N x 3 array of positions with optional
/// colours (points in memory, which the scene reads whole beside any files).
#pragma once

#include <pybind11/pybind11.h>

#include "pcv/session/scene_sources.hpp"

namespace pcv::python {

/// Throws InputError (a pcv.InputError in Python) for a source of no known kind.
SceneSources sceneSourcesFrom(pybind11::handle source, pybind11::handle rgb);

}  // namespace pcv::python
