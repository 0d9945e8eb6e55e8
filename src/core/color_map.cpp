#include "pcv/core/color_map.hpp"

#include <algorithm>
#include <cmath>

#include "pcv/core/error.hpp"
#include "pcv/core/point.hpp"
#include "pcv/core/turbo_color.hpp"

namespace pcv {
namespace {

/// Viridis (van der Walt and Smith, matplotlib 1.5) sampled at 10 evenly spaced stops, the
/// palette published as #440154 #482878 #3E4A89 #31688E #26828E #1F9E89 #35B779 #6DCD59 #B4DE2C
/// #FDE725; piecewise linear between them (the map is close to linear in lightness).
constexpr uint32_t kViridisStops[] = {0x440154, 0x482878, 0x3E4A89, 0x31688E, 0x26828E,
                                      0x1F9E89, 0x35B779, 0x6DCD59, 0xB4DE2C, 0xFDE725};

glm::vec3 viridis(float t) {
  constexpr int kLast = int(std::size(kViridisStops)) - 1;
  const float x = t * float(kLast);
  const int i = std::min(int(x), kLast - 1);
  const float f = x - float(i);
  auto color = [](uint32_t hex) {
    return glm::vec3(float((hex >> 16) & 0xff), float((hex >> 8) & 0xff), float(hex & 0xff)) /
           255.0f;
  };
  return glm::mix(color(kViridisStops[i]), color(kViridisStops[i + 1]), f);
}

/// Turbo: the one definition both backends colour with (turbo_colour.hpp).
glm::vec3 turbo(float t) {
  glm::vec3 c;
  turboChannels(t, c.r, c.g, c.b);
  return c;
}

uint32_t toRgba(const glm::vec3& c) {
  const glm::vec3 bytes = glm::clamp(c, 0.0f, 1.0f) * 255.0f + 0.5f;
  return packRgba(uint32_t(bytes.r), uint32_t(bytes.g), uint32_t(bytes.b));
}

struct AsprsClass {
  const char* name;
  uint32_t rgb;  ///< 0xRRGGBB
};
/// ASPRS LAS 1.4 standard classes 0-18 with the colours LiDAR viewers conventionally use.
constexpr AsprsClass kAsprsClasses[] = {{"never classified", 0xA0A0A0},
                                        {"unclassified", 0xC8C8C8},
                                        {"ground", 0xA0522D},
                                        {"low vegetation", 0x90EE90},
                                        {"medium vegetation", 0x32CD32},
                                        {"high vegetation", 0x006400},
                                        {"building", 0xE03C31},
                                        {"low point (noise)", 0xFF00FF},
                                        {"model key-point", 0xFFD700},
                                        {"water", 0x1E90FF},
                                        {"rail", 0x8B4513},
                                        {"road surface", 0x505050},
                                        {"overlap", 0xFFA500},
                                        {"wire - guard", 0xFFFF66},
                                        {"wire - conductor", 0xFFFF00},
                                        {"transmission tower", 0x9370DB},
                                        {"wire-structure connector", 0xDAA520},
                                        {"bridge deck", 0x708090},
                                        {"high noise", 0xFF1493}};

}  // namespace

glm::vec3 colorMapValue(ColorMap map, float t) {
  t = std::isnan(t) ? 0.0f : std::clamp(t, 0.0f, 1.0f);
  switch (map) {
    case ColorMap::Viridis:
      return viridis(t);
    case ColorMap::Turbo:
      return turbo(t);
    case ColorMap::Grey:
      return glm::vec3(t);
  }
  return glm::vec3(t);
}

uint32_t colorMapRgba(ColorMap map, float t) {
  return toRgba(colorMapValue(map, t));
}

uint32_t classificationRgba(uint32_t asprsClass) {
  const uint32_t rgb =
      asprsClass < std::size(kAsprsClasses) ? kAsprsClasses[asprsClass].rgb : 0x808080u;
  return packRgba((rgb >> 16) & 0xff, (rgb >> 8) & 0xff, rgb & 0xff);
}

std::string classificationName(uint32_t asprsClass) {
  if (asprsClass < std::size(kAsprsClasses)) return kAsprsClasses[asprsClass].name;
  return "class " + std::to_string(asprsClass);
}

namespace {

constexpr NamedValue<ColorMode> kColorModeRows[] = {{"rgb", ColorMode::Rgb},
                                                    {"elevation", ColorMode::Elevation},
                                                    {"intensity", ColorMode::Intensity},
                                                    {"classification", ColorMode::Classification},
                                                    {"attribute", ColorMode::Attribute}};

constexpr NamedValue<ColorMap> kColorMapRows[] = {{"viridis", ColorMap::Viridis},
                                                  {"turbo", ColorMap::Turbo},
                                                  {"grey", ColorMap::Grey},
                                                  {"gray", ColorMap::Grey}};

}  // namespace

const NameTable<ColorMode>& colorModeTable() {
  static const NameTable<ColorMode> table{"colour mode", kColorModeRows};
  return table;
}

std::vector<std::string> colorModeNames() {
  return colorModeTable().names();
}

ColorMode parseColorMode(std::string_view name) {
  return colorModeTable().parse(name);
}

std::string colorModeName(ColorMode mode) {
  return colorModeTable().name(mode);
}

const NameTable<ColorMap>& colorMapTable() {
  static const NameTable<ColorMap> table{"colour map", kColorMapRows};
  return table;
}

std::vector<std::string> colorMapNames() {
  return colorMapTable().names();
}

ColorMap parseColorMap(std::string_view name) {
  return colorMapTable().parse(name);
}

std::string colorMapName(ColorMap map) {
  return colorMapTable().name(map);
}

}  // namespace pcv
