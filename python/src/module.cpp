// The extension module pcv._pcv; python/pcv/__init__.py re-exports it as `pcv`.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "classify_binding.hpp"
#include "errors.hpp"
#include "info_binding.hpp"
#include "pcv/raster/renderer.hpp"
#include "read_binding.hpp"
#include "render_binding.hpp"
#include "renderer_binding.hpp"
#include "write_binding.hpp"

namespace py = pybind11;

PYBIND11_MODULE(_pcv, module) {
  module.doc() =
      "pcv: read, describe and render point clouds (LAS, LAZ, COPC, E57, PLY, PCD, text)";
  pcv::python::bindErrors(module);
  pcv::python::bindRead(module);
  pcv::python::bindInfo(module);
  pcv::python::bindRender(module);
  pcv::python::bindRenderer(module);
  pcv::python::bindWrite(module);
  pcv::python::bindClassify(module);
  module.def(
      "backends",
      [] {
        std::vector<std::string> usable{"cpu"};
        if (pcv::cudaAvailable()) usable.insert(usable.begin(), "cuda");
        return usable;
      },
      "The backends that can render on this machine: \"cuda\" (when built with CUDA and a GPU "
      "is usable) and \"cpu\".");
  module.attr("__version__") = PCV_VERSION;
}
