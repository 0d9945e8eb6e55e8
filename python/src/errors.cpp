#include "errors.hpp"

#include <exception>
#include <string>

#include "pcv/core/error.hpp"
#include "pcv/io/point_cloud_reader.hpp"

namespace py = pybind11;

namespace pcv::python {
namespace {

/// A new exception class `pcv.<name>` deriving from `bases` (a type or a tuple of types); the
/// reference lives as long as the module.
PyObject* newExceptionClass(py::module_& module, const char* name, const char* doc,
                            py::handle bases) {
  const std::string qualified = std::string("pcv.") + name;
  PyObject* type = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, bases.ptr(), nullptr);
  if (!type) throw py::error_already_set();
  module.add_object(name, py::handle(type));  // the module holds its reference
  return type;
}

}  // namespace

void bindErrors(py::module_& module) {
  static PyObject* error = newExceptionClass(
      module, "Error", "Base of every error pcv raises; the message says what, where and why.",
      PyExc_RuntimeError);
  static PyObject* inputError = newExceptionClass(
      module, "InputError",
      "A file or argument is malformed: the message names the file, the byte offset or line, "
      "and what was expected there.",
      py::make_tuple(py::handle(error), py::handle(PyExc_ValueError)));
  static PyObject* outOfMemory = newExceptionClass(
      module, "OutOfMemoryError",
      "Not enough host or GPU memory for what was asked; the message names the sizes.",
      py::make_tuple(py::handle(error), py::handle(PyExc_MemoryError)));
  static PyObject* unavailable = newExceptionClass(
      module, "UnavailableError",
      "A capability is missing on this machine or in this build (no CUDA device, built without "
      "CUDA ...).",
      error);
  // Most derived first: each C++ class maps to its own Python class.
  py::register_exception_translator([](std::exception_ptr thrown) {
    try {
      if (thrown) std::rethrow_exception(thrown);
    } catch (const InputError& e) {
      PyErr_SetString(inputError, e.what());
    } catch (const OutOfMemoryError& e) {
      PyErr_SetString(outOfMemory, e.what());
    } catch (const UnavailableError& e) {
      PyErr_SetString(unavailable, e.what());
    } catch (const Error& e) {  // LoadCancelled and the rest
      PyErr_SetString(error, e.what());
    }
  });
}

}  // namespace pcv::python
