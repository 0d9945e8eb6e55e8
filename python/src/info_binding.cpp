#include "info_binding.hpp"

#include <cmath>
#include <filesystem>

#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include "pcv/io/point_cloud_reader.hpp"

namespace py = pybind11;

namespace pcv::python {
namespace {

py::tuple triple(const glm::dvec3& v) {
  return py::make_tuple(v.x, v.y, v.z);
}

py::object unitOf(const LengthUnit& unit) {
  if (!unit.known()) return py::none();
  py::dict result;
  result["name"] = unit.name;
  result["symbol"] = unit.symbol();
  result["metres"] = unit.angular() ? py::object(py::none()) : py::object(py::float_(unit.metres));
  return result;
}

/// None when the file states no CRS.
py::object crsOf(const CoordinateSystem& crs) {
  if (!crs.known()) return py::none();
  const auto code = [](int epsg) { return epsg != 0 ? py::object(py::int_(epsg)) : py::none(); };
  py::dict result;
  result["label"] = crs.label();
  result["name"] = crs.name.empty() ? py::object(py::none()) : py::object(py::str(crs.name));
  result["wkt"] = crs.wkt;
  result["epsg"] = code(crs.epsg);
  result["vertical_epsg"] = code(crs.verticalEpsg);
  result["horizontal_unit"] = unitOf(crs.horizontalUnit);
  result["vertical_unit"] = unitOf(crs.verticalUnit);
  return result;
}

py::dict info(const std::filesystem::path& path) {
  FileSummary summary;
  {
    py::gil_scoped_release unlocked;
    summary = describePointFile(path);
    completeFromDatabase(summary.crs);
  }
  py::dict result;
  result["format"] = summary.format;
  result["details"] = summary.details;
  // None where the format declares no count (text files).
  result["point_count"] =
      summary.pointCountKnown ? py::object(py::int_(summary.pointCount)) : py::object(py::none());
  // Bounds as declared; None when the header declares none (or only the E57 placeholder).
  const Box3d& bounds = summary.worldBounds;
  const bool bounded = !bounds.empty() && std::isfinite(bounds.min.x) &&
                       std::isfinite(bounds.max.x) && std::abs(bounds.min.x) < 1e300 &&
                       std::abs(bounds.max.x) < 1e300;
  result["bounds"] = bounded ? py::object(py::make_tuple(triple(bounds.min), triple(bounds.max)))
                             : py::object(py::none());
  result["origin"] = triple(summary.origin);
  result["has_color"] = summary.hasColor;
  result["attributes"] = summary.attributes;
  result["notes"] = summary.notes;
  result["warnings"] = summary.warnings;
  result["crs"] = crsOf(summary.crs);
  return result;
}

}  // namespace

void bindInfo(py::module_& module) {
  module.def("info", &info, py::arg("path"),
             R"doc(Describes a point cloud file from its header alone: instant and in bounded
memory at any file size; no point is decoded.

Returns:
    A dict: "format" ("LAS", "PLY", ...), "details" (version, encoding), "point_count" (as
    declared; None when the format declares none), "bounds" (((min x, y, z), (max x, y, z)) as
    declared, or None), "origin", "has_color", "attributes" (names pcv.read returns), "notes"
    (format-specific lines, as `pcv info` prints them), "warnings" and "crs": None when the
    file states no coordinate system, else a dict of "label", "name", "wkt", "epsg" and
    "vertical_epsg" (None where unknown), "horizontal_unit" and "vertical_unit" (None where
    undeclared, else {"name": "metre" | "US survey foot" | "foot" | "degree" | ..., "symbol":
    "m" | "ftUS" | "ft" | "deg" | ..., "metres": metres per unit, None for degrees}).

Raises:
    pcv.InputError: the file is malformed or unreadable.)doc");
}

}  // namespace pcv::python
