/// @brief The colours themselves: perceptual colour maps (viridis, turbo, grey) of t in [0, 1],
/// the ASPRS LAS classification palette, and the names of the colour modes and maps. Which
/// points get which colour is point_coloring.hpp's concern.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <glm/glm.hpp>

#include "pcv/core/named_values.hpp"

namespace pcv {

enum class ColorMap { Viridis, Turbo, Grey };
/// Attribute colours by any scalar (ColoringOptions::attribute); Elevation is the "z" attribute
/// with its own default map.
enum class ColorMode { Rgb, Elevation, Intensity, Classification, Attribute };

/// Linear RGB-ish display values in [0, 1]; t is clamped to [0, 1], NaN gives the t = 0 colour.
glm::vec3 colorMapValue(ColorMap map, float t);
/// The same as packed RGBA8 (alpha 255).
uint32_t colorMapRgba(ColorMap map, float t);

/// Colour of an ASPRS standard class (LAS 1.4 table 17: 0 created/never classified, 1
/// unclassified, 2 ground ... 18 high noise); classes above 18 get a neutral grey.
uint32_t classificationRgba(uint32_t asprsClass);
/// Name of an ASPRS class ("ground", "building" ...), "class N" beyond the standard ones.
std::string classificationName(uint32_t asprsClass);

/// The names of --color and pcv.render(color=...): "rgb", "elevation", "intensity",
/// "classification", "attribute".
const NameTable<ColorMode>& colorModeTable();
std::vector<std::string> colorModeNames();
/// Throws UnknownNameError listing the known names.
ColorMode parseColorMode(std::string_view name);
std::string colorModeName(ColorMode mode);

/// The names of --color-map: "viridis", "turbo", "grey" (and "gray", read as "grey").
const NameTable<ColorMap>& colorMapTable();
std::vector<std::string> colorMapNames();
/// Throws UnknownNameError listing the known names.
ColorMap parseColorMap(std::string_view name);
std::string colorMapName(ColorMap map);

}  // namespace pcv
