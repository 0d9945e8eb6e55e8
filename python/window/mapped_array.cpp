#include "mapped_array.hpp"

#include <pybind11/stl.h>

#include <utility>

#include "pcv/core/error.hpp"
#include "pcv/raster/renderer.hpp"

namespace py = pybind11;

namespace pcv::python {

std::string typestrOf(const py::dtype& dtype) {
  return py::str(dtype.attr("str"));
}

bool sameType(const py::dtype& a, const py::dtype& b) {
  return typestrOf(a) == typestrOf(b);
}

py::dict MappedArray::interface() const {
  if (!valid) throw InputError("the array was unmapped: map the buffer again");
  py::dict cai;
  cai["shape"] = py::tuple(py::cast(shape));
  cai["typestr"] = typestr;
  cai["data"] = py::make_tuple(pointer, false);
  cai["strides"] = py::none();
  cai["version"] = 3;
  cai["stream"] = 1;  // mapped on the legacy default stream, where the seed's kernels run
  return cai;
}

CudaMapping::CudaMapping(GLuint buffer) {
#if PCV_WITH_CUDA
  std::string whyNot;
  if (!cudaAvailable(&whyNot)) throw UnavailableError("mapping GL buffers into CUDA: " + whyNot);
  registered_.emplace(buffer);
#else
  (void)buffer;
  throw UnavailableError("mapping GL buffers into CUDA needs pcv built with CUDA");
#endif
}

std::shared_ptr<MappedArray> CudaMapping::map(std::vector<py::ssize_t> shape, std::string typestr,
                                              size_t bytes) {
#if PCV_WITH_CUDA
  if (current_) throw InputError("the buffer is mapped already: unmap it first");
  registered_->map(nullptr);
  if (bytes > registered_->mappedBytes()) {
    registered_->unmap(nullptr);
    throw InputError("a view of " + std::to_string(bytes) + " bytes exceeds the buffer's " +
                     std::to_string(registered_->mappedBytes()));
  }
  current_ = std::make_shared<MappedArray>();
  current_->pointer = reinterpret_cast<uintptr_t>(registered_->view<uint8_t>().data);
  current_->shape = std::move(shape);
  current_->typestr = std::move(typestr);
  return current_;
#else
  (void)shape, (void)typestr, (void)bytes;
  return nullptr;
#endif
}

void CudaMapping::unmap() {
#if PCV_WITH_CUDA
  if (!current_) return;
  current_->valid = false;
  current_.reset();
  registered_->unmap(nullptr);
#endif
}

void bindMappedArray(py::module_& module) {
  py::class_<MappedArray, std::shared_ptr<MappedArray>>(module, "MappedArray",
                                                        "A mapped buffer as a CUDA array.")
      .def_property_readonly("__cuda_array_interface__", &MappedArray::interface)
      .def_property_readonly("shape",
                             [](const MappedArray& a) { return py::tuple(py::cast(a.shape)); });
}

}  // namespace pcv::python
