/// @brief pcv's exceptions as Python exception classes: InputError is a ValueError, so code that
/// catches bad arguments catches bad files too; every class keeps pcv's whole message.
#pragma once

#include <pybind11/pybind11.h>

namespace pcv::python {

/// Adds Error, InputError, OutOfMemoryError and UnavailableError to `module` and translates the
/// C++ exceptions into them.
void bindErrors(pybind11::module_& module);

}  // namespace pcv::python
