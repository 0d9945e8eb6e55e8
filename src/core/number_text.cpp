#include "pcv/core/number_text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace pcv {

std::string fixedText(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  // Rounded to zero, a small negative value keeps its sign in printf: drop it.
  if (text[0] == '-' && std::strspn(text + 1, "0.") == std::strlen(text + 1)) {
    return text + 1;
  }
  return text;
}

std::string exactText(double value) {
  char text[32];
  for (int digits = 6; digits <= 17; ++digits) {
    std::snprintf(text, sizeof text, "%.*g", digits, value);
    if (std::strtod(text, nullptr) == value) break;
  }
  return text;
}

std::string offsetText(double value, double origin) {
  const float offset = float(value - origin);
  char text[32];
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(text, sizeof text, "%.*g", digits, value);
    // "6.36e+05" may read back too; a coordinate reads better as "636000".
    if (std::strstr(text, "e+")) continue;
    if (float(std::strtod(text, nullptr) - origin) == offset) return text;
  }
  return exactText(value);
}

std::string exactFloatText(float value) {
  char text[32];
  for (int digits = 6; digits <= 9; ++digits) {
    std::snprintf(text, sizeof text, "%.*g", digits, double(value));
    if (std::strtof(text, nullptr) == value) break;
  }
  return text;
}

std::string fixedText(const glm::dvec3& value, int decimals) {
  // Appended piece by piece: one chain of + trips GCC 12's -Wrestrict.
  std::string text = "(";
  text += fixedText(value.x, decimals);
  text += ", ";
  text += fixedText(value.y, decimals);
  text += ", ";
  text += fixedText(value.z, decimals);
  text += ")";
  return text;
}

std::string countText(uint64_t count) {
  const char* units[] = {"", " k", " M", " G", " T"};
  double value = double(count);
  int unit = 0;
  while (value >= 1000.0 && unit < 4) {
    value /= 1000.0;
    ++unit;
  }
  char text[32];
  // One decimal below 10 when it says something ("1.5 M"), none otherwise ("10 M", "950").
  const bool decimal = unit > 0 && value < 10.0 && std::fmod(value, 1.0) >= 0.05;
  std::snprintf(text, sizeof text, decimal ? "%.1f%s" : "%.0f%s", value, units[unit]);
  return text;
}

int decimalsForSpan(double low, double high) {
  const double span = std::abs(high - low);
  if (!(span > 0.0) || !std::isfinite(span)) return 3;
  // The tolerance keeps a span like 1000.002 - 1000.001 (0.00099999999997) at 0.001's decimals.
  return std::clamp(int(std::ceil(-std::log10(span) - 1e-6)) + 1, 0, 12);
}

}  // namespace pcv
