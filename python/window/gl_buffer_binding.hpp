/// @brief pcv.window.GlBuffer: the seed's GL buffer mapped into CUDA for Python programs, a
/// buffer object of the window's context whose memory CUDA kernels use, as an array of any
/// type and shape, between map() and unmap().
#pragma once

#include <pybind11/pybind11.h>

namespace pcv::python {

/// Binds GlBuffer (after Window and MappedArray).
void bindGlBuffer(pybind11::module_& module);

}  // namespace pcv::python
