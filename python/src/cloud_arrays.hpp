/// @brief A PointCloud as NumPy arrays and back. Going out, the arrays are views of the cloud's
/// own memory (its 16-byte points and its attribute vectors) kept alive by a capsule that owns
/// the cloud, so nothing is copied but the float64 world positions, which pcv does not store.
/// Coming in, positions and colours are packed into pcv's point layout (one copy, in parallel).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "pcv/core/point_cloud.hpp"

namespace pcv::python {

/// The dict pcv.read returns: "xyz" (N x 3 float64, world), "offsets" (N x 3 float32 view, from
/// "origin"), "origin" (3 float64), "rgb" (N x 3 uint8 view) when the cloud has colours, and one
/// float32 view per attribute. `fields`, when given, keeps only those attributes (and "rgb").
pybind11::dict cloudToArrays(std::shared_ptr<PointCloud> cloud,
                             const std::optional<std::vector<std::string>>& fields);

/// A cloud of the N x 3 positions `xyz` (world units, any real dtype) and the optional N x 3 (or
/// N x 4) uint8 colours `rgb`; its origin is near the first point, so UTM-sized coordinates keep
/// their precision. Throws InputError for shapes that do not fit.
std::shared_ptr<PointCloud> cloudFromArrays(pybind11::handle xyz, pybind11::handle rgb);

/// A cloud of a dict as cloudToArrays makes it: "offsets" from "origin" when both are there (the
/// very floats pcv read, so the image is the file's), else "xyz"; "rgb" unless `rgb` is given;
/// every other one-dimensional array of N values as an attribute.
std::shared_ptr<PointCloud> cloudFromDict(const pybind11::dict& arrays, pybind11::handle rgb);

}  // namespace pcv::python
