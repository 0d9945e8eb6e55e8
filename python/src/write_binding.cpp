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
    data: a dict as pcv.read returns it ("offsets" and "origin", or "xyz"; "rgb";
        "point_format", the LAS point format to write, else one that holds the data), or an
        N x 3 array of world positions. Attributes named as pcv.read names LAS fields
        ("classification", "gps_time", "point_source_id" ...) go to those fields; every other
        attribute goes to the extra bytes, of its array's type, named in an Extra Bytes VLR.
        COPC files take point format 6, 7 or 8.
    rgb: N x 3 colours, for an array (or instead of the dict's): uint8, uint16 (as LAS
        stores them), or floats in 0..1 (as Open3D's).

Returns:
    The number of points written.

Raises:
    pcv.InputError (a ValueError): an unknown kind of file, arrays of the wrong shape, float
        colours outside 0..1, or a point_format that is not 0-10.)doc");
}

}  // namespace pcv::python
