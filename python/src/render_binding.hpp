/// @brief pcv.render: an image of files or arrays through the session layer, exactly as `pcv
/// render` draws it (same scene, same start camera, same settings), with the GIL released while
/// the scene is opened and drawn.
#pragma once

#include <pybind11/pybind11.h>

namespace pcv::python {

void bindRender(pybind11::module_& module);

}  // namespace pcv::python
