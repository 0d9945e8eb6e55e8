#include "render_source.hpp"

#include <string>

#include "cloud_arrays.hpp"
#include "pcv/core/error.hpp"

namespace py = pybind11;

namespace pcv::python {
namespace {

bool isPath(py::handle object) {
  static const py::object pathLike = py::module_::import("os").attr("PathLike");
  return py::isinstance<py::str>(object) || py::isinstance(object, pathLike);
}

std::string pathText(py::handle object) {
  return py::str(py::module_::import("os").attr("fspath")(object));
}

}  // namespace

RenderSource renderSourceFrom(py::handle source, py::handle rgb) {
  RenderSource result;
  SceneSources& sources = result.sources;
  if (isCudaArray(source)) {
    result.cudaArrays = std::make_unique<CudaPointArrays>(source, rgb);
    sources.produced = result.cudaArrays->produced();
    return result;
  }
  if (isPath(source)) {
    sources.files.push_back(pathText(source));
  } else if (py::isinstance<py::dict>(source)) {
    sources.clouds.push_back(cloudFromDict(py::reinterpret_borrow<py::dict>(source), rgb));
  } else if ((py::isinstance<py::list>(source) || py::isinstance<py::tuple>(source)) &&
             py::len(source) > 0 && isPath(source[py::int_(0)])) {
    for (py::handle item : source) {
      if (!isPath(item)) throw InputError("a list of files must hold paths only");
      sources.files.push_back(pathText(item));
    }
  } else {
    sources.clouds.push_back(cloudFromArrays(hostArrayOf(source), hostArrayOf(rgb)));
  }
  if (!rgb.is_none() && !sources.files.empty()) {
    throw InputError("rgb applies to positions given as an array, not to files");
  }
  return result;
}

}  // namespace pcv::python
