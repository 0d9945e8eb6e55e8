#include "read_binding.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include "cloud_arrays.hpp"
#include "pcv/core/error.hpp"
#include "pcv/io/point_cloud_reader.hpp"
#include "pcv/session/copc_region.hpp"
#if PCV_WITH_CUDA
#include "pcv/io_cuda/cuda_laz.hpp"
#endif

namespace py = pybind11;

namespace pcv::python {
namespace {

/// Names pcv.read always returns whatever `fields` says.
bool isPositionField(const std::string& name) {
  return name == "xyz" || name == "offsets" || name == "origin";
}

/// What to decode for `fields`: positions always, colours when "rgb" is named, the attributes
/// named (all of them, and colours, when `fields` is None).
ReadOptions readOptionsFor(const std::optional<std::vector<std::string>>& fields,
                           std::optional<uint32_t> scan, const std::string& decode) {
  ReadOptions options;
  options.scan = scan;
#if PCV_WITH_CUDA
  options.lazDecoder = io::lazDecoderNamed(decode);
#else
  if (decode == "cuda") {
    throw UnavailableError(
        "cannot decode LAZ on the GPU (decode cuda): pcv was built without CUDA");
  }
  if (decode != "auto" && decode != "cpu") {
    throw InputError("unknown LAZ decoder \"" + decode + "\" (expected auto, cuda or cpu)");
  }
#endif
  if (!fields) {
    options.allAttributes = true;  // every field of the file, LAS's GPS time and flags too
    return options;
  }
  options.colors = std::find(fields->begin(), fields->end(), "rgb") != fields->end();
  for (const std::string& name : *fields) {
    if (name != "rgb" && !isPositionField(name)) options.attributes.push_back(name);
  }
  // An empty attribute list decodes every attribute; a list naming only "xyz" should decode
  // none. No attribute has this name, so the readers skip them all.
  if (options.attributes.empty()) options.attributes.push_back("");
  return options;
}

/// Fails for a requested attribute the file lacks, naming the ones it has.
void checkFields(const std::filesystem::path& path, const PointCloud& cloud,
                 const std::optional<std::vector<std::string>>& fields) {
  if (!fields) return;
  for (const std::string& name : *fields) {
    if (isPositionField(name) || (name == "rgb" && cloud.hasColor)) continue;
    if (name != "rgb" && cloud.findAttribute(name)) continue;
    std::string has = cloud.hasColor ? "rgb" : "";
    for (const ScalarAttribute& attribute : cloud.attributes) {
      has += (has.empty() ? "" : ", ") + attribute.name;
    }
    throw InputError(path.string() + ": no field \"" + name +
                     "\" (the file has: " + (has.empty() ? "positions only" : has) + ")");
  }
}

/// ((min x, min y[, min z]), (max x, max y[, max z])) as a box; without z, every height.
Box3d boxFrom(const std::vector<std::vector<double>>& bounds) {
  const bool shaped = bounds.size() == 2 && bounds[0].size() == bounds[1].size() &&
                      (bounds[0].size() == 2 || bounds[0].size() == 3);
  if (!shaped) {
    throw InputError("bounds must be ((min x, min y[, min z]), (max x, max y[, max z]))");
  }
  const double lowZ = bounds[0].size() == 3 ? bounds[0][2] : -INFINITY;
  const double highZ = bounds[1].size() == 3 ? bounds[1][2] : INFINITY;
  Box3d box;
  box.min = glm::dvec3(bounds[0][0], bounds[0][1], lowZ);
  box.max = glm::dvec3(bounds[1][0], bounds[1][1], highZ);
  return box;
}

py::dict read(const std::filesystem::path& path,
              const std::optional<std::vector<std::string>>& fields, std::optional<uint32_t> scan,
              const std::optional<std::vector<std::vector<double>>>& bounds,
              std::optional<double> resolution, const std::string& decode) {
  const ReadOptions options = readOptionsFor(fields, scan, decode);
  CopcRegion region;
  if (bounds) region.bounds = boxFrom(*bounds);
  if (resolution) region.resolution = *resolution;
  auto cloud = std::make_shared<PointCloud>();
  {
    py::gil_scoped_release unlocked;
    if (bounds || resolution) {
      *cloud = std::move(readCopcRegion(path, region, options).cloud);
    } else {
      *cloud = readPointCloud(path, options, nullptr, nullptr);
    }
  }
  checkFields(path, *cloud, fields);
  return cloudToArrays(std::move(cloud), fields);
}

}  // namespace

void bindRead(py::module_& module) {
  module.def("read", &read, py::arg("path"), py::kw_only(), py::arg("fields") = py::none(),
             py::arg("scan") = py::none(), py::arg("bounds") = py::none(),
             py::arg("resolution") = py::none(), py::arg("decode") = "auto",
             R"doc(Reads a point cloud file into NumPy arrays.

Every format pcv opens is read (LAS, LAZ, COPC, E57, PLY, PCD, XYZ/TXT/CSV/PTS), chosen by
the file's magic bytes, then its extension. Points with a NaN or infinite coordinate are
dropped.

Args:
    path: the file.
    fields: names to decode besides the positions: "rgb" and attributes as pcv.info lists
        them ("intensity", "classification", ...). None decodes everything.
    scan: E57 files: read only this scan (0-based); None merges every scan.
    bounds: COPC files: ((min x, min y[, min z]), (max x, max y[, max z])) in world units;
        only the octree nodes that meet them are decoded, and only points inside are returned.
    resolution: COPC files: the point spacing wanted; levels finer than the first whose
        spacing is at most this are not read (an overview of a large file). As PDAL's
        readers.copc.
    decode: LAZ and COPC files: where the chunks are decoded, "cpu" (every core), "cuda"
        (the GPU decoder, bit-exact with the CPU's) or "auto", which takes the CPU (the GPU
        outruns 16 cores only on files of over ~1 500 chunks).

Returns:
    A dict of arrays: "xyz" (N x 3 float64, world units), "origin" (3 float64) and
    "offsets" (N x 3 float32, xyz - origin, as pcv stores them); "rgb" (N x 3 uint8) when the
    file has colours; one array of N values per attribute, of the field's own type
    (classification uint8, point_source_id uint16, gps_time float64, other formats' attributes
    float32). LAS, LAZ and COPC files give every field of their point format (intensity,
    classification, return_number, number_of_returns, synthetic, key_point, withheld,
    overlap, scanner_channel, scan_direction, edge_of_flight_line, user_data, scan_angle in
    degrees, point_source_id, gps_time, nir) and their extra bytes by the names their VLR gives,
    and "point_format" (an int), so that pcv.write writes them back alike. "offsets", "rgb"
    and the float attributes are views of pcv's own memory, not copies.

Raises:
    pcv.InputError: the file is malformed or unreadable (or not COPC, with bounds or
        resolution), or lacks a field asked for, or decode names no decoder.
    pcv.UnavailableError: decode="cuda" where no CUDA device is usable.)doc");
}

}  // namespace pcv::python
