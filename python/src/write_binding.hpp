/// @brief pcv.write: points held in NumPy arrays written as LAS, LAZ or COPC through the session
/// layer's writer, with the GIL released while the file is encoded.
#pragma once

#include <pybind11/pybind11.h>

namespace pcv::python {

void bindWrite(pybind11::module_& module);

}  // namespace pcv::python
