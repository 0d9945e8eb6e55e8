#include "pcv/core/length_unit.hpp"

#include <cmath>
#include <cstdio>

namespace pcv {
namespace {

constexpr double kFootMetres = 0.3048;                 // international foot, exact
constexpr double kUsSurveyFootMetres = 1200.0 / 3937;  // US survey foot, exact by definition

/// Sizes written with fewer digits (0.3048006096) still name the unit they round.
bool near(double a, double b) {
  return std::abs(a - b) <= 1e-9 * b;
}

}  // namespace

std::string LengthUnit::symbol() const {
  if (name == "metre") return "m";
  if (name == "foot") return "ft";
  if (name == "US survey foot") return "ftUS";
  if (name == "degree") return "deg";
  return name;
}

LengthUnit lengthUnitFromEpsg(int code) {
  switch (code) {
    case 9001:
      return {"metre", 1.0};
    case 9002:
      return {"foot", kFootMetres};
    case 9003:
      return {"US survey foot", kUsSurveyFootMetres};
    case 9036:
      return {"kilometre", 1000.0};
    case 9102:
      return {"degree", 0.0};
    default:
      return {};
  }
}

LengthUnit lengthUnitFromWkt(const std::string& name, double size, bool angular) {
  if (angular) {
    constexpr double kDegreeRadians = 3.14159265358979323846 / 180.0;
    if (near(size, kDegreeRadians)) return {"degree", 0.0};
    return {name.empty() ? std::string("angular unit") : name, 0.0};
  }
  if (!(size > 0.0) || !std::isfinite(size)) return {};
  if (near(size, 1.0)) return {"metre", 1.0};
  if (near(size, kFootMetres)) return {"foot", kFootMetres};
  if (near(size, kUsSurveyFootMetres)) return {"US survey foot", kUsSurveyFootMetres};
  return {name.empty() ? std::string("unit of ") + std::to_string(size) + " m" : name, size};
}

std::string formatLength(double value, const LengthUnit& unit, int digits) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", digits, value);
  std::string result = text;
  if (unit.known()) result += ' ' + unit.symbol();
  return result;
}

}  // namespace pcv
