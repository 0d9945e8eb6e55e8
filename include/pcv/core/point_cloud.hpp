/// @brief A point cloud in host memory: a double-precision origin and float offsets from it, so
/// georeferenced coordinates (UTM: 500000, 5000000) keep their centimetres.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "pcv/core/attribute_type.hpp"
#include "pcv/core/bounds.hpp"
#include "pcv/core/point.hpp"
#include "pcv/core/uninitialized_vector.hpp"

namespace pcv {

/// Per-point scalar values a file carried besides position and colour (intensity,
/// classification, return number, GPS time ...), one value per point, for colouring, filters,
/// picking and export. Stored as floats, or as doubles for the wide types: one of the two
/// vectors holds the values, by `type`; value() and setValue() read and write either.
struct ScalarAttribute {
  std::string name;
  UninitializedVector<float> values;  ///< narrow types; resize() leaves them for the reader
  AttributeType type = AttributeType::Float32;
  UninitializedVector<double> wideValues;  ///< wide types (isWideAttributeType); else empty

  bool wide() const { return isWideAttributeType(type); }
  uint64_t size() const { return wide() ? wideValues.size() : values.size(); }
  double value(uint64_t i) const { return wide() ? wideValues[i] : double(values[i]); }
  void setValue(uint64_t i, double v) {
    if (wide()) {
      wideValues[i] = v;
    } else {
      values[i] = float(v);
    }
  }
  /// Grows with uninitialised values (for a reader to fill) or shrinks.
  void resize(uint64_t count);
  /// Grows with `fill` or shrinks.
  void resize(uint64_t count, double fill);
  /// Appends values [begin, end) of `other` (any type), converted to this one's.
  void append(const ScalarAttribute& other, uint64_t begin, uint64_t end);
  void push_back(double v);
  /// Value i moved to index `to` (to <= i), for readers that compact their points.
  void moveValue(uint64_t to, uint64_t from) { setValue(to, value(from)); }
  /// Same name and type, no values.
  ScalarAttribute emptyLike() const { return {name, {}, type, {}}; }
};

struct PointCloud {
  glm::dvec3 origin{0.0};             ///< world position that point offsets are relative to
  UninitializedVector<Point> points;  ///< offsets from origin, and RGBA colour
  bool hasColor = false;              ///< true when colours came from the data, not a colour map
  std::vector<ScalarAttribute> attributes;
  /// The LAS point format (0-10) the points were read from, so that writing them back as LAS
  /// keeps it and its fields; -1 for other sources.
  int lasPointFormat = -1;

  uint64_t size() const { return points.size(); }
  /// Bounds of the offsets (computed in parallel, not trusted from a file header); NaN/inf
  /// points skipped.
  Box3f localBounds() const;
  /// Bounds in world coordinates.
  Box3d worldBounds() const;
  const ScalarAttribute* findAttribute(const std::string& name) const;
};

/// Rounds a world position to whole units: the origin of a cloud whose points lie near it, so
/// UTM coordinates (500000, 5000000) become small float offsets that keep their centimetres.
/// Whole units keep the origin exact in any decimal notation and cost nothing in precision: the
/// remainder below one unit is well inside a float's 24 bits.
glm::dvec3 originNear(const glm::dvec3& world);

}  // namespace pcv
