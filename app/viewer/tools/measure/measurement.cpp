#include "viewer/tools/measure/measurement.hpp"

#include <cmath>
#include <cstdio>

namespace pcv::app {
namespace {

/// The coordinate along the up axis, and the two horizontal ones.
double heightOf(const glm::dvec3& p, UpAxis up) {
  return up == UpAxis::Z ? p.z : p.y;
}
glm::dvec2 horizontalOf(const glm::dvec3& p, UpAxis up) {
  // Y up: the ground is x by -z, the z-up frame turned a quarter about x (see Camera).
  return up == UpAxis::Z ? glm::dvec2(p.x, p.y) : glm::dvec2(p.x, -p.z);
}

/// All 17 significant digits: the CSV and JSON read back to the same doubles.
std::string exact(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

}  // namespace

const char* measureKindName(MeasureKind kind) {
  switch (kind) {
    case MeasureKind::Distance:
      return "distance";
    case MeasureKind::Polyline:
      return "polyline";
    case MeasureKind::Height:
      return "height";
    case MeasureKind::Area:
      return "area";
  }
  return "distance";
}

bool parseMeasureKind(const std::string& name, MeasureKind& kind) {
  for (MeasureKind k :
       {MeasureKind::Distance, MeasureKind::Polyline, MeasureKind::Height, MeasureKind::Area}) {
    if (name == measureKindName(k)) {
      kind = k;
      return true;
    }
  }
  return false;
}

size_t minimumPoints(MeasureKind kind) {
  return kind == MeasureKind::Area ? 3 : 2;
}

size_t completePoints(MeasureKind kind) {
  return kind == MeasureKind::Distance || kind == MeasureKind::Height ? 2 : 0;
}

size_t segmentCount(const Measurement& m) {
  const size_t n = m.points.size();
  if (n < 2) return 0;
  return m.kind == MeasureKind::Area && n >= 3 ? n : n - 1;
}

double segmentLength(const Measurement& m, size_t segment) {
  const glm::dvec3& a = m.points[segment];
  const glm::dvec3& b = m.points[(segment + 1) % m.points.size()];
  return glm::length(b - a);
}

MeasureResult measure(const Measurement& m) {
  MeasureResult result;
  for (size_t s = 0; s < segmentCount(m); ++s) result.length += segmentLength(m, s);
  if (m.points.size() >= 2) {
    const glm::dvec3& first = m.points.front();
    const glm::dvec3& last = m.points.back();
    result.height = heightOf(last, m.up) - heightOf(first, m.up);
    result.horizontal = glm::length(horizontalOf(last, m.up) - horizontalOf(first, m.up));
  }
  if (m.kind == MeasureKind::Area && m.points.size() >= 3) {
    // The shoelace formula about the first point, which keeps large (UTM) coordinates from
    // cancelling in the products.
    const glm::dvec2 base = horizontalOf(m.points.front(), m.up);
    double twice = 0.0;
    for (size_t i = 1; i + 1 < m.points.size(); ++i) {
      const glm::dvec2 a = horizontalOf(m.points[i], m.up) - base;
      const glm::dvec2 b = horizontalOf(m.points[i + 1], m.up) - base;
      twice += a.x * b.y - a.y * b.x;
    }
    result.area = std::abs(twice) * 0.5;
  }
  return result;
}

std::string summaryText(const Measurement& m, int digits, const LengthUnit& unit) {
  const MeasureResult r = measure(m);
  const std::string length = formatLength(r.length, unit, digits);
  switch (m.kind) {
    case MeasureKind::Distance:
    case MeasureKind::Polyline:
      return length;
    case MeasureKind::Height: {
      std::string text = "height " + formatLength(r.height, unit, digits);
      if (!std::signbit(r.height)) text.insert(7, "+");
      return text + ", horizontal " + formatLength(r.horizontal, unit, digits);
    }
    case MeasureKind::Area: {
      std::string area = formatLength(r.area, unit, digits);
      if (unit.known()) area += "\u00b2";  // square units
      return "area " + area + ", perimeter " + length;
    }
  }
  return length;
}

std::string measurementsCsv(const std::vector<Measurement>& measurements, const LengthUnit& unit) {
  std::string csv =
      "index,kind,length,horizontal,height,area,points,unit,coordinates (x y z ...)\n";
  for (size_t i = 0; i < measurements.size(); ++i) {
    const Measurement& m = measurements[i];
    const MeasureResult r = measure(m);
    // Appended piece by piece: one long chain of + trips GCC 12's -Wrestrict.
    csv += std::to_string(i + 1);
    for (const std::string& cell :
         {std::string(measureKindName(m.kind)), exact(r.length), exact(r.horizontal),
          exact(r.height), exact(r.area), std::to_string(m.points.size()), unit.symbol()}) {
      csv += ',';
      csv += cell;
    }
    for (const glm::dvec3& p : m.points) {
      csv += ',';
      csv += exact(p.x) + ' ' + exact(p.y) + ' ' + exact(p.z);
    }
    csv += '\n';
  }
  return csv;
}

std::string measurementsJson(const std::vector<Measurement>& measurements, const LengthUnit& unit) {
  // The symbol as a JSON string: a unit named in a file may hold a quote or a backslash.
  std::string unitJson = "null";
  if (unit.known()) {
    unitJson = "\"";
    for (const char c : unit.symbol()) {
      if (c == '"' || c == '\\') unitJson += '\\';
      if (static_cast<unsigned char>(c) >= 0x20) unitJson += c;
    }
    unitJson += '"';
  }
  std::string json = "[";
  for (size_t i = 0; i < measurements.size(); ++i) {
    const Measurement& m = measurements[i];
    const MeasureResult r = measure(m);
    json += i ? ",\n {" : "\n {";
    json += "\"kind\": \"";
    json += measureKindName(m.kind);
    json += m.up == UpAxis::Z ? "\", \"up\": \"z\"" : "\", \"up\": \"y\"";
    json += ", \"length\": " + exact(r.length);
    json += ", \"horizontal\": " + exact(r.horizontal);
    json += ", \"height\": " + exact(r.height);
    json += ", \"area\": " + exact(r.area);
    json += ", \"unit\": " + unitJson;
    json += ", \"points\": [";
    for (size_t k = 0; k < m.points.size(); ++k) {
      const glm::dvec3& p = m.points[k];
      if (k) json += ", ";
      json += '[';
      json += exact(p.x) + ", " + exact(p.y) + ", " + exact(p.z);
      json += ']';
    }
    json += "]}";
  }
  json += measurements.empty() ? "]\n" : "\n]\n";
  return json;
}

}  // namespace pcv::app
