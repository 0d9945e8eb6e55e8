#include "pcv/core/point_coloring.hpp"

#include "pcv/core/host_memory.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdlib>

#include "pcv/core/error.hpp"
#include "pcv/core/parallel.hpp"

namespace pcv {
namespace {

constexpr uint64_t kMaxSampleValues = 1u << 20;  // percentiles from at most ~1 M values

/// Values of one scalar per point: an attribute's array, or one coordinate of the points (float
/// offsets, to which `offset` adds the origin).
struct ScalarSource {
  const ScalarAttribute* attribute = nullptr;
  int axis = -1;        ///< 0, 1, 2 for x, y, z when not an attribute
  /// origin's coordinate for axes; for wide attributes (GPS time) their first value, so the
  /// floats are small differences that keep their precision; 0 for other attributes
  double offset = 0.0;
  const PointCloud* cloud = nullptr;

  float localValue(uint64_t i) const {
    if (attribute) {
      return attribute->wide() ? float(attribute->wideValues[i] - offset) : attribute->values[i];
    }
    const Point& p = cloud->points[i];
    return axis == 0 ? p.x : axis == 1 ? p.y : p.z;
  }
};

std::optional<ScalarSource> findScalar(const PointCloud& cloud, const std::string& name) {
  if (const ScalarAttribute* attribute = cloud.findAttribute(name)) {
    const double offset =
        attribute->wide() && attribute->size() > 0 ? attribute->wideValues[0] : 0.0;
    return ScalarSource{attribute, -1, std::isfinite(offset) ? offset : 0.0, &cloud};
  }
  static const char* axes[] = {"x", "y", "z"};
  for (int a = 0; a < 3; ++a) {
    if (name == axes[a]) return ScalarSource{nullptr, a, cloud.origin[a], &cloud};
  }
  return std::nullopt;
}

/// Every k-th value, so the percentile costs the same for 1 M and 1 G points.
std::vector<float> sampleOf(const ScalarSource& source, uint64_t count) {
  std::vector<float> sample;
  const uint64_t step = std::max<uint64_t>(1, count / kMaxSampleValues);
  sample.reserve(count / step + 1);
  for (uint64_t i = 0; i < count; i += step) sample.push_back(source.localValue(i));
  return sample;
}

/// A scalar's colour on a map over a range; t in float from offsets: the range is moved into
/// the offsets' frame once, in double.
struct ScalarRamp {
  ScalarSource source;
  ColorMap map;
  float low, scale;

  ScalarRamp(const ScalarSource& from, ColorMap colorMap, const ValueRange& range)
      : source(from),
        map(colorMap),
        low(float(range.low - from.offset)),
        scale(float(1.0 / (range.high - range.low))) {}
  uint32_t operator()(uint64_t i) const {
    return colorMapRgba(map, (source.localValue(i) - low) * scale);
  }
};

void rampColors(const ScalarSource& source, uint64_t count, ColorMap map, const ValueRange& range,
                std::span<uint32_t> rgba) {
  const ScalarRamp ramp(source, map, range);
  parallelFor(count, [&](uint64_t begin, uint64_t end) {
    for (uint64_t i = begin; i < end; ++i) rgba[i] = ramp(i);
  });
}

uint32_t classOf(float value) {
  return value >= 0.0f && value < 256.0f ? uint32_t(value) : 255u;
}

}  // namespace

ValueRange percentileRange(std::span<const float> values, double lowQuantile, double highQuantile,
                           double offset) {
  std::vector<float> finite;
  finite.reserve(values.size());
  for (float v : values) {
    if (std::isfinite(v)) finite.push_back(v);
  }
  if (finite.empty()) return {offset - 0.5, offset + 0.5};
  // Linear between the order statistics around q * (n - 1), like numpy's default.
  auto quantile = [&](double q) {
    const double position = std::clamp(q, 0.0, 1.0) * double(finite.size() - 1);
    const size_t below = size_t(std::floor(position));
    std::nth_element(finite.begin(), finite.begin() + below, finite.end());
    const double lowValue = finite[below];
    if (below + 1 >= finite.size()) return lowValue;
    const double highValue = *std::min_element(finite.begin() + below + 1, finite.end());
    return lowValue + (position - double(below)) * (highValue - lowValue);
  };
  ValueRange range{quantile(lowQuantile) + offset, quantile(highQuantile) + offset};
  if (!(range.high > range.low)) {
    const double middle = 0.5 * (range.low + range.high);
    range = {middle - 0.5, middle + 0.5};
  }
  return range;
}

ValueRange parseValueRange(const std::string& text) {
  const auto comma = text.find(',');
  if (comma != std::string::npos) {
    const std::string lowText = text.substr(0, comma), highText = text.substr(comma + 1);
    char* lowEnd = nullptr;
    char* highEnd = nullptr;
    const double low = std::strtod(lowText.c_str(), &lowEnd);
    const double high = std::strtod(highText.c_str(), &highEnd);
    if (!lowText.empty() && !highText.empty() && *lowEnd == '\0' && *highEnd == '\0' &&
        std::isfinite(low) && std::isfinite(high) && low < high) {
      return {low, high};
    }
  }
  throw InputError("bad colour range '" + text + "': expected MIN,MAX with finite MIN < MAX");
}

std::vector<std::string> colorableAttributes(const PointCloud& cloud) {
  std::vector<std::string> names;
  for (const auto& attribute : cloud.attributes) names.push_back(attribute.name);
  for (const char* axis : {"x", "y", "z"}) {
    if (!cloud.findAttribute(axis)) names.push_back(axis);
  }
  return names;
}

Coloring colorPoints(const PointCloud& cloud, const ColoringOptions& options,
                     std::span<uint32_t> rgba) {
  const uint64_t count = cloud.size();
  if (rgba.size() != count) {
    throw InputError("colorPoints: " + std::to_string(rgba.size()) + " colours for " +
                     std::to_string(count) + " points");
  }
  Coloring used;
  used.mode = options.mode;
  std::string scalar;  // the attribute to ramp, once the mode is settled
  switch (options.mode) {
    case ColorMode::Rgb:
      if (cloud.hasColor) {
        parallelFor(count, [&](uint64_t begin, uint64_t end) {
          for (uint64_t i = begin; i < end; ++i) rgba[i] = cloud.points[i].rgba;
        });
        return used;
      }
      used.note = "no colours in the data";
      break;
    case ColorMode::Classification:
      if (const ScalarAttribute* classes = cloud.findAttribute("classification")) {
        std::array<std::atomic<bool>, 256> present{};
        parallelFor(count, [&](uint64_t begin, uint64_t end) {
          std::array<bool, 256> seen{};
          for (uint64_t i = begin; i < end; ++i) {
            const uint32_t c = classOf(float(classes->value(i)));
            seen[c] = true;
            rgba[i] = classificationRgba(c);
          }
          for (size_t c = 0; c < seen.size(); ++c) {
            if (seen[c]) present[c] = true;
          }
        });
        for (uint32_t c = 0; c < present.size(); ++c) {
          if (present[c]) used.classes.push_back(c);
        }
        return used;
      }
      used.note = "no classification in the data";
      break;
    case ColorMode::Intensity:
      if (cloud.findAttribute("intensity")) {
        scalar = "intensity";
      } else {
        used.note = "no intensity in the data";
      }
      break;
    case ColorMode::Attribute:
      if (!findScalar(cloud, options.attribute)) {
        std::string known;
        for (const auto& name : colorableAttributes(cloud))
          known += (known.empty() ? "" : ", ") + name;
        throw InputError("no attribute '" + options.attribute + "' to colour by: expected one of " +
                         known);
      }
      scalar = options.attribute;
      break;
    case ColorMode::Elevation:
      break;
  }
  if (scalar.empty()) {
    used.mode = ColorMode::Elevation;
    scalar = std::string(1, 'z');  // not = "z": works around a false GCC 12 -Wrestrict warning
  }
  const ScalarSource source = *findScalar(cloud, scalar);
  used.attribute = scalar;
  used.map = options.map                         ? *options.map
             : used.mode == ColorMode::Intensity ? ColorMap::Grey
             : used.mode == ColorMode::Elevation ? ColorMap::Turbo
                                                 : ColorMap::Viridis;
  used.range = options.range ? *options.range
                             : percentileRange(sampleOf(source, count), 0.02, 0.98, source.offset);
  rampColors(source, count, used.map, used.range, rgba);
  return used;
}

void colorPointsAt(const PointCloud& cloud, const Coloring& used, std::span<const uint64_t> indices,
                   std::span<uint32_t> rgba) {
  if (rgba.size() != indices.size()) {
    throw InputError("colorPointsAt: " + std::to_string(rgba.size()) + " colours for " +
                     std::to_string(indices.size()) + " points");
  }
  const ScalarAttribute* classes = cloud.findAttribute("classification");
  const std::optional<ScalarSource> scalar =
      used.attribute.empty() ? std::nullopt : findScalar(cloud, used.attribute);
  // The mode as colorPoints settled it: classes or the file's colours where it kept them, the
  // ramp of its scalar otherwise.
  const bool byClass = used.mode == ColorMode::Classification && classes;
  const bool byRgb = used.mode == ColorMode::Rgb && cloud.hasColor;
  if (!byClass && !byRgb && !scalar) {
    throw InputError("colorPointsAt: the points lack '" + used.attribute + "' to colour by");
  }
  parallelFor(indices.size(), [&](uint64_t begin, uint64_t end) {
    const std::optional<ScalarRamp> ramp =
        scalar ? std::optional<ScalarRamp>(std::in_place, *scalar, used.map, used.range)
               : std::nullopt;
    for (uint64_t k = begin; k < end; ++k) {
      const uint64_t i = indices[k];
      rgba[k] = byClass ? classificationRgba(classOf(float(classes->value(i))))
                : byRgb ? cloud.points[i].rgba
                        : (*ramp)(i);
    }
  });
}

Coloring coloredPoints(const PointCloud& cloud, const ColoringOptions& options,
                       UninitializedVector<Point>& out) {
  // The colours, then the coloured copy: refused with the sizes rather than killed.
  requireHostMemory("the coloured points", cloud.size(), sizeof(uint32_t) + sizeof(Point));
  UninitializedVector<uint32_t> rgba(cloud.size());
  const Coloring used = colorPoints(cloud, options, rgba);
  out.resize(cloud.size());
  parallelFor(cloud.size(), [&](uint64_t begin, uint64_t end) {
    for (uint64_t i = begin; i < end; ++i)
      out[i] = {cloud.points[i].x, cloud.points[i].y, cloud.points[i].z, rgba[i]};
  });
  return used;
}

Coloring recolorPoints(PointCloud& cloud, const ColoringOptions& options) {
  // All colours first: colorPoints may read the points' own (Rgb) while it works.
  requireHostMemory("the points' new colours", cloud.size(), sizeof(uint32_t));
  UninitializedVector<uint32_t> rgba(cloud.size());
  const Coloring used = colorPoints(cloud, options, rgba);
  parallelFor(cloud.size(), [&](uint64_t begin, uint64_t end) {
    for (uint64_t i = begin; i < end; ++i) cloud.points[i].rgba = rgba[i];
  });
  return used;
}

ColorMode colorize(PointCloud& cloud, ColorMode mode, ColorMap map) {
  ColoringOptions options;
  options.mode = mode;
  if (mode == ColorMode::Elevation || mode == ColorMode::Rgb || mode == ColorMode::Classification) {
    options.map = map;  // the map of the elevation fallback too
  }
  return recolorPoints(cloud, options).mode;
}

}  // namespace pcv
