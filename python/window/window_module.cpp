// pcv.window: the seed's two reusable pieces for Python programs. A window (GLFW, or a headless
// EGL context; window.cpp), its screen buffer (a pixel buffer that CUDA writes and GL blits to
// the window; screen_buffer_binding.cpp) and GL buffers mapped into CUDA (gl_buffer_binding.cpp),
// each mapped array handed to Python through __cuda_array_interface__ (mapped_array.cpp), so
// numba, CuPy or PyTorch kernels write them in place. A module of its own: `import pcv` never
// loads GL.
#include <pybind11/pybind11.h>

#include <exception>

#include "gl_buffer_binding.hpp"
#include "mapped_array.hpp"
#include "pcv/core/error.hpp"
#include "screen_buffer_binding.hpp"
#include "window.hpp"

namespace py = pybind11;

namespace pcv::python {
namespace {

/// pcv's errors raise pcv's exception classes (defined by pcv._pcv), as in the main module.
void translateErrors() {
  py::register_exception_translator([](std::exception_ptr thrown) {
    const py::module_ pcvModule = py::module_::import("pcv._pcv");
    try {
      if (thrown) std::rethrow_exception(thrown);
    } catch (const InputError& e) {
      PyErr_SetString(pcvModule.attr("InputError").ptr(), e.what());
    } catch (const UnavailableError& e) {
      PyErr_SetString(pcvModule.attr("UnavailableError").ptr(), e.what());
    } catch (const Error& e) {
      PyErr_SetString(pcvModule.attr("Error").ptr(), e.what());
    }
  });
}

}  // namespace
}  // namespace pcv::python

PYBIND11_MODULE(_window, module) {
  using namespace pcv::python;
  translateErrors();
  module.doc() = "The seed's window, screen buffer and GL buffers mapped into CUDA.";
  bindMappedArray(module);
  bindWindow(module);
  bindScreenBuffer(module);
  bindGlBuffer(module);
}
