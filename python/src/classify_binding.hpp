/// @brief pcv.classify: ground (SMRF) and noise classes of points given as arrays, the filters
/// `pcv classify` writes into files.
#pragma once

#include <pybind11/pybind11.h>

namespace pcv::python {

void bindClassify(pybind11::module_& module);

}  // namespace pcv::python
