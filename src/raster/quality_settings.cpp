#include "pcv/raster/quality_settings.hpp"

#include <cmath>
#include <string>

#include "pcv/core/error.hpp"

namespace pcv {
namespace {

constexpr NamedValue<PointShape> kPointShapeRows[] = {{"square", PointShape::Square},
                                                      {"round", PointShape::Round}};

constexpr NamedValue<EdlMode> kEdlModeRows[] = {
    {"off", EdlMode::Off}, {"on", EdlMode::On}, {"auto", EdlMode::Auto}};

void requireRange(const char* name, double value, double low, double high) {
  if (!(value >= low && value <= high)) {
    throw InputError(std::string(name) + " must be in " + std::to_string(low) + " .. " +
                     std::to_string(high) + ", got " + std::to_string(value));
  }
}

}  // namespace

void validateQualitySettings(const QualitySettings& q) {
  requireRange("the point size (pixels)", q.pointSizePx, 1, kMaxPointSizePx);
  requireRange("the largest point size (pixels)", q.maxPointSizePx, 1, kMaxPointSizePx);
  if (!(q.worldSize > 0.0f && std::isfinite(q.worldSize))) {
    throw InputError("the world point size must be a positive number, got " +
                     std::to_string(q.worldSize));
  }
  requireRange("the hole-filling radius (pixels)", q.fillRadiusPx, 0, kMaxFillRadiusPx);
  requireRange("the eye-dome lighting radius (pixels)", q.edlRadiusPx, 1, kMaxEdlRadiusPx);
  requireRange("the eye-dome lighting strength", q.edlStrength, 0.0, 100.0);
  requireRange("the high-quality depth range", q.hqDepthRange, 0.0, 1.0);
}

const NameTable<PointShape>& pointShapeTable() {
  static const NameTable<PointShape> table{"point shape", kPointShapeRows};
  return table;
}

std::vector<std::string> pointShapeNames() {
  return pointShapeTable().names();
}

PointShape parsePointShape(std::string_view name) {
  return pointShapeTable().parse(name);
}

const char* pointShapeName(PointShape shape) {
  return pointShapeTable().name(shape);
}

const NameTable<EdlMode>& edlModeTable() {
  static const NameTable<EdlMode> table{"eye-dome lighting mode", kEdlModeRows};
  return table;
}

std::vector<std::string> edlModeNames() {
  return edlModeTable().names();
}

EdlMode parseEdlMode(std::string_view name) {
  return edlModeTable().parse(name);
}

const char* edlModeName(EdlMode mode) {
  return edlModeTable().name(mode);
}

}  // namespace pcv
