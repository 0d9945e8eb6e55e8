#include "write_binding.hpp"

#include <filesystem>
#include <memory>

#include <pybind11/stl/filesystem.h>

#include "cloud_arrays.hpp"
#include "pcv/session/cloud_writer.hpp"

namespace py = pybind11;

namespace pcv::python {
namespace {

uint64_t write(const std::filesystem::path& path, py::object data, py::object rgb) {
  cloudFileKindFor(path);  // an unknown kind fails before the arrays are packed
  const std::shared_ptr<const PointCloud> cloud =
      py::isinstance<py::dict>(data) ? cloudFromDict(py::reinterpret_borrow<py::dict>(data), rgb)
                                     : cloudFromArrays(data, rgb);
  py::gil_scoped_release unlocked;
  return writePointCloud(cloud, path).points;
}

}  // namespace

void bindWrite(py::module_& module) {
  module.def("write", &write, py::arg("path"), py::arg("data"), py::arg("rgb") = py::none(),
             R"doc(Writes points as LAS, LAZ or COPC, chosen by the name (*.las, *.laz,
*.copc.laz), through the writers of `pcv convert`.

Args:
    path: the file to write; it appears only once complete.
    data: a dict as pcv.read returns it ("offsets" and "origin", or "xyz"; "rgb"; the
        attributes "intensity", "classification" and "return_number" are kept), or an N x 3
        array of world positions.
    rgb: N x 3 uint8 colours, for an array (or instead of the dict's).

Returns:
    The number of points written.

Raises:
    pcv.InputError: an unknown kind of file, or arrays of the wrong shape.)doc");
}

}  // namespace pcv::python
