#include "classify_binding.hpp"

#include <cstring>
#include <span>
#include <string>

#include <pybind11/numpy.h>

#include "pcv/core/error.hpp"
#include "pcv/process/point_classes.hpp"
#include "pcv/session/classifier_choice.hpp"

namespace py = pybind11;

namespace pcv::python {
namespace {

using PositionArray = py::array_t<double, py::array::c_style | py::array::forcecast>;

/// An N x 3 array of world positions, or pcv.read's dict (its "xyz").
PositionArray positionsOf(py::object points) {
  if (py::isinstance<py::dict>(points)) {
    const py::dict arrays = py::reinterpret_borrow<py::dict>(points);
    if (!arrays.contains("xyz")) {
      throw InputError("classify: a dict of points needs \"xyz\" (as pcv.read gives)");
    }
    points = arrays["xyz"];
  }
  const PositionArray array = PositionArray::ensure(points);
  if (!array || array.ndim() != 2 || array.shape(1) != 3) {
    PyErr_Clear();
    throw InputError("classify: xyz must be an N x 3 array of numbers");
  }
  return array;
}

py::array_t<uint8_t> classify(py::object points, bool ground, bool noise, double cell, double slope,
                              double window, double threshold, double scalar, double noiseRadius,
                              uint32_t noiseNeighbours, const std::string& device) {
  const std::shared_ptr<const PointClassifier> classifier = choosePointClassifier(device);
  const ClassifySettings settings{
      .ground = ground,
      .noise = noise,
      .groundFilter = {.cell = cell,
                       .slope = slope,
                       .window = window,
                       .threshold = threshold,
                       .scalar = scalar},
      .noiseFilter = {.radius = noiseRadius, .minNeighbours = noiseNeighbours}};
  const PositionArray xyz = positionsOf(std::move(points));
  const size_t count = size_t(xyz.shape(0));
  // glm::dvec3 is three packed doubles, as a C-contiguous N x 3 array's rows are.
  static_assert(sizeof(glm::dvec3) == 3 * sizeof(double));
  const std::span<const glm::dvec3> positions(reinterpret_cast<const glm::dvec3*>(xyz.data()),
                                              count);
  std::vector<uint8_t> classes;
  {
    py::gil_scoped_release unlocked;
    classes = classifier->classify(positions, settings);
  }
  py::array_t<uint8_t> result(py::ssize_t(classes.size()));
  std::memcpy(result.mutable_data(), classes.data(), classes.size());
  return result;
}

}  // namespace

void bindClassify(py::module_& module) {
  const GroundFilterSettings ground;
  const NoiseFilterSettings noise;
  module.def("classify", &classify, py::arg("xyz"), py::kw_only(), py::arg("ground") = true,
             py::arg("noise") = true, py::arg("cell") = ground.cell,
             py::arg("slope") = ground.slope, py::arg("window") = ground.window,
             py::arg("threshold") = ground.threshold, py::arg("scalar") = ground.scalar,
             py::arg("noise_radius") = noise.radius,
             py::arg("noise_neighbours") = noise.minNeighbours, py::arg("device") = "auto",
             R"doc(LAS classes of points: 2 for ground (SMRF, Pingel et al. 2013), 7 for isolated
points (noise), 1 for the rest, as `pcv classify` sets them in files.

Args:
    xyz: an N x 3 array of world positions (z up, map units), or pcv.read's dict.
    ground: find ground; noise: find isolated points (first: noise never shapes the ground).
    cell: grid cell size; slope: slope threshold (rise over run); window: largest opening
        window radius; threshold: elevation threshold; scalar: elevation scalar (threshold
        added per unit of the ground surface's slope). The defaults suit airborne data.
    noise_radius: search radius; noise_neighbours: a point with fewer other points within
        the radius is noise.
    device: where the filters run: "auto" (the GPU where CUDA is usable, else the CPU),
        "cuda" or "cpu"; each gives the same classes.

Returns:
    An N uint8 array of classes; the same points in any order get the same classes.

Raises:
    pcv.InputError (a ValueError): no points, an array that is not N x 3, neither filter
        asked for, or a bad parameter (a cell <= 0, a window smaller than the cell ...), an
        unknown device.
    pcv.UnavailableError: device="cuda" where no CUDA device is usable.)doc");
}

}  // namespace pcv::python
