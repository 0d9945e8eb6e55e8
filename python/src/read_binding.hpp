/// @brief pcv.read: a point cloud file into NumPy arrays, through pcv's readers (every format
/// `pcv render` opens), with the GIL released while the file is decoded.
#pragma once

#include <pybind11/pybind11.h>

namespace pcv::python {

void bindRead(pybind11::module_& module);

}  // namespace pcv::python
