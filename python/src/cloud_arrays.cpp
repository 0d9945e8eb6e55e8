#include "cloud_arrays.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>

#include "pcv/core/error.hpp"
#include "pcv/core/parallel.hpp"

namespace py = pybind11;

namespace pcv::python {
namespace {

constexpr py::ssize_t kPointBytes = sizeof(Point);

/// A capsule that keeps `cloud` alive for as long as any array viewing it.
py::capsule ownerOf(std::shared_ptr<PointCloud> cloud) {
  auto* held = new std::shared_ptr<PointCloud>(std::move(cloud));
  return py::capsule(
      held, [](void* pointer) { delete static_cast<std::shared_ptr<PointCloud>*>(pointer); });
}

/// World positions: the float offsets added to the double origin, in double.
py::array_t<double> worldPositions(const PointCloud& cloud) {
  const py::ssize_t count = py::ssize_t(cloud.size());
  py::array_t<double> xyz({count, py::ssize_t(3)});
  double* out = xyz.mutable_data();
  const Point* points = cloud.points.data();
  const glm::dvec3 origin = cloud.origin;
  {
    py::gil_scoped_release unlocked;
    parallelFor(uint64_t(count), [&](uint64_t begin, uint64_t end) {
      for (uint64_t i = begin; i < end; ++i) {
        out[3 * i + 0] = origin.x + double(points[i].x);
        out[3 * i + 1] = origin.y + double(points[i].y);
        out[3 * i + 2] = origin.z + double(points[i].z);
      }
    });
  }
  return xyz;
}

bool wanted(const std::optional<std::vector<std::string>>& fields, const std::string& name) {
  return !fields || std::find(fields->begin(), fields->end(), name) != fields->end();
}

/// An attribute as the type it has in the file: float32 and float64 values are views of the
/// cloud's memory; integer fields are copied into integer arrays (a missing value, NaN where
/// clouds were merged, becomes 0).
py::array attributeArray(const ScalarAttribute& attribute, py::ssize_t count,
                         const py::capsule& owner) {
  if (attribute.type == AttributeType::Float32) {
    return py::array(py::dtype::of<float>(), {count}, {py::ssize_t(sizeof(float))},
                     attribute.values.data(), owner);
  }
  if (attribute.type == AttributeType::Float64) {
    return py::array(py::dtype::of<double>(), {count}, {py::ssize_t(sizeof(double))},
                     attribute.wideValues.data(), owner);
  }
  py::array array(py::dtype(attributeTypeName(attribute.type)), std::vector<py::ssize_t>{count});
  char* out = static_cast<char*>(array.mutable_data());
  const py::ssize_t size = array.itemsize();
  const auto fill = [&]<typename T>(T) {
    for (py::ssize_t i = 0; i < count; ++i) {
      const double v = attribute.value(uint64_t(i));
      const T whole = std::isnan(v) ? T(0) : T(v);
      std::memcpy(out + i * size, &whole, sizeof(T));
    }
  };
  switch (attribute.type) {
    case AttributeType::Int8:
      fill(int8_t());
      break;
    case AttributeType::UInt8:
      fill(uint8_t());
      break;
    case AttributeType::Int16:
      fill(int16_t());
      break;
    case AttributeType::UInt16:
      fill(uint16_t());
      break;
    case AttributeType::Int32:
      fill(int32_t());
      break;
    case AttributeType::UInt32:
      fill(uint32_t());
      break;
    case AttributeType::Int64:
      fill(int64_t());
      break;
    default:
      fill(uint64_t());
      break;
  }
  return array;
}

/// The attribute type of a NumPy array's dtype (booleans as uint8); float32 for anything else.
AttributeType attributeTypeOf(const py::dtype& dtype) {
  const char kind = dtype.kind();
  const py::ssize_t size = dtype.itemsize();
  if (kind == 'b') return AttributeType::UInt8;
  if (kind == 'f') return size == 8 ? AttributeType::Float64 : AttributeType::Float32;
  if (kind == 'i') {
    return size == 1   ? AttributeType::Int8
           : size == 2 ? AttributeType::Int16
           : size == 4 ? AttributeType::Int32
                       : AttributeType::Int64;
  }
  if (kind == 'u') {
    return size == 1   ? AttributeType::UInt8
           : size == 2 ? AttributeType::UInt16
           : size == 4 ? AttributeType::UInt32
                       : AttributeType::UInt64;
  }
  return AttributeType::Float32;
}

std::string shapeText(const py::array& array) {
  std::string text = "(";
  for (py::ssize_t axis = 0; axis < array.ndim(); ++axis) {
    text += (axis ? ", " : "") + std::to_string(array.shape(axis));
  }
  return text + (array.ndim() == 1 ? ",)" : ")");
}

}  // namespace

py::dict cloudToArrays(std::shared_ptr<PointCloud> cloud,
                       const std::optional<std::vector<std::string>>& fields) {
  const py::ssize_t count = py::ssize_t(cloud->size());
  py::dict arrays;
  arrays["xyz"] = worldPositions(*cloud);
  arrays["origin"] = py::array_t<double>(3, &cloud->origin.x);
  const py::capsule owner = ownerOf(cloud);
  // Views into the 16-byte points: x, y, z floats at offset 0, then R, G, B, A bytes.
  char* base = reinterpret_cast<char*>(cloud->points.data());
  arrays["offsets"] = py::array(py::dtype::of<float>(), {count, py::ssize_t(3)},
                                {kPointBytes, py::ssize_t(sizeof(float))}, base, owner);
  if (cloud->hasColor && wanted(fields, "rgb")) {
    arrays["rgb"] = py::array(py::dtype::of<uint8_t>(), {count, py::ssize_t(3)},
                              {kPointBytes, py::ssize_t(1)}, base + offsetof(Point, rgba), owner);
  }
  for (ScalarAttribute& attribute : cloud->attributes) {
    if (!wanted(fields, attribute.name)) continue;
    arrays[py::str(attribute.name)] = attributeArray(attribute, count, owner);
  }
  if (cloud->lasPointFormat >= 0) arrays["point_format"] = py::int_(cloud->lasPointFormat);
  return arrays;
}

namespace {

using RealArray = py::array_t<double, py::array::c_style | py::array::forcecast>;
using ColorArray = py::array_t<uint8_t, py::array::c_style | py::array::forcecast>;

/// `object` as an N x 3 array of doubles; throws InputError naming `what` otherwise.
RealArray positionArray(py::handle object, const char* what) {
  const RealArray array = RealArray::ensure(object);
  if (!array || array.ndim() != 2 || array.shape(1) != 3) {
    PyErr_Clear();
    throw InputError(std::string(what) + " must be an N x 3 array of numbers, got " +
                     (array ? "shape " + shapeText(array) : std::string("no array")));
  }
  return array;
}

/// Colours given as floats (Open3D's convention: 0..1) or 16-bit integers (LAS's) as 8-bit ones,
/// which pcv's points hold; other float colours are refused, not wrapped to black.
py::object eightBitColors(py::handle object) {
  const py::array given = py::array::ensure(object);
  if (!given) return py::reinterpret_borrow<py::object>(object);
  const char kind = given.dtype().kind();
  if (kind == 'f') {
    const py::array_t<double, py::array::c_style | py::array::forcecast> values(given);
    const double* v = values.data();
    for (py::ssize_t i = 0; i < values.size(); ++i) {
      if (!(v[i] >= 0.0 && v[i] <= 1.0)) {
        throw InputError("colours given as floats must lie in 0..1, as Open3D's do (value " +
                         std::to_string(i) + " is " + std::to_string(v[i]) +
                         "); give uint8 (0-255) or uint16 (0-65535) colours otherwise");
      }
    }
    // 0..1 scaled to 16 bits, as LAS stores colours, then to the 8 bits a point holds.
    py::array_t<uint8_t> bytes(
        std::vector<py::ssize_t>(given.shape(), given.shape() + given.ndim()));
    uint8_t* out = bytes.mutable_data();
    for (py::ssize_t i = 0; i < values.size(); ++i) {
      const uint32_t wide = uint32_t(std::lround(v[i] * 65535.0));
      out[i] = uint8_t((wide * 255 + 32767) / 65535);
    }
    return bytes;
  }
  if ((kind == 'u' || kind == 'i') && given.itemsize() > 1) {
    const py::array_t<int64_t, py::array::c_style | py::array::forcecast> values(given);
    const int64_t* v = values.data();
    py::array_t<uint8_t> bytes(
        std::vector<py::ssize_t>(given.shape(), given.shape() + given.ndim()));
    uint8_t* out = bytes.mutable_data();
    for (py::ssize_t i = 0; i < values.size(); ++i) {
      if (v[i] < 0 || v[i] > 65535) {
        throw InputError("integer colours must lie in 0-65535 (a value is " + std::to_string(v[i]) +
                         ")");
      }
      // uint16 colours, or wider integers holding them.
      out[i] = uint8_t((v[i] * 255 + 32767) / 65535);
    }
    return bytes;
  }
  return py::reinterpret_borrow<py::object>(object);
}

/// `object` as N x 3 (or N x 4) uint8 colours, or nothing for None.
std::optional<ColorArray> colorArray(py::handle object, uint64_t count) {
  if (object.is_none()) return std::nullopt;
  const py::object colors = eightBitColors(object);
  const ColorArray array = ColorArray::ensure(colors);
  if (!array || array.ndim() != 2 || uint64_t(array.shape(0)) != count ||
      (array.shape(1) != 3 && array.shape(1) != 4)) {
    PyErr_Clear();
    throw InputError("colours must be an N x 3 (or N x 4) uint8 array for " +
                     std::to_string(count) + " positions, got " +
                     (array ? "shape " + shapeText(array) : std::string("no array")));
  }
  return array;
}

/// Fills the cloud's points from N x 3 `positions` (world, or offsets from `origin` already
/// when `relative`) and optional colours, on all cores.
void fillPoints(PointCloud& cloud, const double* positions, uint64_t count, bool relative,
                const uint8_t* colors, py::ssize_t colorStride) {
  if (!relative) {
    for (uint64_t i = 0; i < count; ++i) {  // the origin: near the first finite point
      const glm::dvec3 p(positions[3 * i], positions[3 * i + 1], positions[3 * i + 2]);
      if (std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z)) {
        cloud.origin = originNear(p);
        break;
      }
    }
  }
  cloud.hasColor = colors != nullptr;
  cloud.points.resize(count);
  Point* out = cloud.points.data();
  const glm::dvec3 origin = relative ? glm::dvec3(0.0) : cloud.origin;
  parallelFor(count, [&](uint64_t begin, uint64_t end) {
    for (uint64_t i = begin; i < end; ++i) {
      const double* p = positions + 3 * i;
      Point& point = out[i];
      point.x = float(p[0] - origin.x);
      point.y = float(p[1] - origin.y);
      point.z = float(p[2] - origin.z);
      const uint8_t* c = colors ? colors + colorStride * py::ssize_t(i) : nullptr;
      point.rgba = c ? packRgba(c[0], c[1], c[2]) : packRgba(255, 255, 255);
    }
  });
}

}  // namespace

std::shared_ptr<PointCloud> cloudFromArrays(py::handle xyzObject, py::handle rgbObject) {
  const RealArray xyz = positionArray(xyzObject, "positions");
  const uint64_t count = uint64_t(xyz.shape(0));
  const std::optional<ColorArray> rgb = colorArray(rgbObject, count);
  auto cloud = std::make_shared<PointCloud>();
  py::gil_scoped_release unlocked;  // the arrays stay referenced by this frame
  fillPoints(*cloud, xyz.data(), count, false, rgb ? rgb->data() : nullptr,
             rgb ? rgb->shape(1) : 0);
  return cloud;
}

std::shared_ptr<PointCloud> cloudFromDict(const py::dict& arrays, py::handle rgbObject) {
  const bool relative = arrays.contains("offsets") && arrays.contains("origin");
  if (!relative && !arrays.contains("xyz")) {
    throw InputError("a dict of points needs \"xyz\" (or \"offsets\" and \"origin\")");
  }
  const RealArray positions =
      positionArray(arrays[relative ? "offsets" : "xyz"], relative ? "offsets" : "xyz");
  const uint64_t count = uint64_t(positions.shape(0));
  const std::optional<ColorArray> rgb = colorArray(
      rgbObject.is_none() && arrays.contains("rgb") ? py::handle(arrays["rgb"]) : rgbObject, count);
  auto cloud = std::make_shared<PointCloud>();
  if (relative) {
    const RealArray origin = RealArray::ensure(arrays["origin"]);
    if (!origin || origin.size() != 3) {
      PyErr_Clear();
      throw InputError("origin must hold 3 numbers");
    }
    cloud->origin = glm::dvec3(origin.data()[0], origin.data()[1], origin.data()[2]);
  }
  if (arrays.contains("point_format")) {
    const py::object format = arrays["point_format"];
    const int value = py::isinstance<py::int_>(format) ? format.cast<int>() : -1;
    if (value < 0 || value > 10) {
      throw InputError("point_format must be a LAS point format, 0 to 10");
    }
    cloud->lasPointFormat = value;
  }
  for (const auto& [key, value] : arrays) {
    const std::string name = py::str(key);
    if (name == "xyz" || name == "offsets" || name == "origin" || name == "rgb" ||
        name == "point_format") {
      continue;
    }
    const auto values =
        py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(value);
    if (!values || values.ndim() != 1 || uint64_t(values.shape(0)) != count) {
      PyErr_Clear();
      throw InputError("attribute \"" + name + "\" must be a one-dimensional array of " +
                       std::to_string(count) + " values");
    }
    ScalarAttribute& attribute = cloud->attributes.emplace_back();
    attribute.name = name;
    // Its own type (uint8 classes, float64 GPS time), so a writer stores it as it came.
    attribute.type = attributeTypeOf(py::array::ensure(value).dtype());
    attribute.resize(count);
    for (uint64_t i = 0; i < count; ++i) attribute.setValue(i, values.data()[i]);
  }
  py::gil_scoped_release unlocked;
  fillPoints(*cloud, positions.data(), count, relative, rgb ? rgb->data() : nullptr,
             rgb ? rgb->shape(1) : 0);
  return cloud;
}

}  // namespace pcv::python
