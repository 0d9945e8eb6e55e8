#include "gl_buffer_binding.hpp"

#include <epoxy/gl.h>

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <memory>
#include <optional>
#include <vector>

#include "mapped_array.hpp"
#include "pcv/core/error.hpp"
#include "pcv/gl/gl_check.hpp"
#include "pcv/gl/gl_objects.hpp"
#include "window.hpp"

namespace py = pybind11;

namespace pcv::python {
namespace {

class PyGlBuffer final : public GlResource {
 public:
  PyGlBuffer(Window& window, size_t bytes) : window_(window), bytes_(bytes) {
    window.requireOpen();
    if (bytes == 0) throw InputError("a GL buffer needs at least one byte");
    buffer_ = std::make_unique<GlBuffer>(GlBuffer::create());
    glBindBuffer(GL_ARRAY_BUFFER, buffer_->id());
    GL_CHECK(glBufferStorage(GL_ARRAY_BUFFER, GLsizeiptr(bytes), nullptr, 0));
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    window_.adopt(this);
  }
  ~PyGlBuffer() override {
    window_.forget(this);
    releaseGl();
  }
  void releaseGl() override {
    mapping_.reset();
    buffer_.reset();
  }
  /// The buffer as a CUDA array of `dtype` and `shape` (all of it as one dimension when None).
  std::shared_ptr<MappedArray> map(const py::object& dtypeObject,
                                   std::optional<std::vector<py::ssize_t>> shape) {
    window_.requireOpen();
    const py::dtype dtype = py::dtype::from_args(dtypeObject);
    std::vector<py::ssize_t> dims =
        shape ? *shape : std::vector<py::ssize_t>{py::ssize_t(bytes_ / dtype.itemsize())};
    size_t bytes = dtype.itemsize();
    for (py::ssize_t d : dims) bytes *= size_t(d);
    if (!mapping_) mapping_.emplace(buffer_->id());  // registered with CUDA when first mapped
    return mapping_->map(dims, typestrOf(dtype), bytes);
  }
  void unmap() {
    if (mapping_) mapping_->unmap();
  }
  GLuint id() const {
    window_.requireOpen();
    return buffer_->id();
  }
  size_t bytes() const { return bytes_; }

 private:
  Window& window_;
  size_t bytes_;
  std::unique_ptr<GlBuffer> buffer_;
  std::optional<CudaMapping> mapping_;
};

}  // namespace

void bindGlBuffer(py::module_& module) {
  py::class_<PyGlBuffer>(module, "GlBuffer")
      .def(py::init<Window&, size_t>(), py::arg("window"), py::arg("bytes"), py::keep_alive<1, 2>())
      .def("map", &PyGlBuffer::map, py::arg("dtype") = "float32", py::arg("shape") = py::none())
      .def("unmap", &PyGlBuffer::unmap)
      .def_property_readonly("id", &PyGlBuffer::id)
      .def_property_readonly("bytes", &PyGlBuffer::bytes);
}

}  // namespace pcv::python
