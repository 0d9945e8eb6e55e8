/// @brief pcv.info: what a file's header declares (format, count, bounds, fields), at any file
/// size, without decoding a point.
#pragma once

#include <pybind11/pybind11.h>

namespace pcv::python {

void bindInfo(pybind11::module_& module);

}  // namespace pcv::python
