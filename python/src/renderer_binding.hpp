/// @brief pcv.Renderer: one renderer kept across frames, for animations and batch work: point
/// sets added and removed, each coloured through the session layer's ColouredCloud, and frames
/// drawn from any camera without reading or laying out the points again.
#pragma once

#include <pybind11/pybind11.h>

namespace pcv::python {

void bindRenderer(pybind11::module_& module);

}  // namespace pcv::python
