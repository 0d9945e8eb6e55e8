/// @brief Colouring points that carry no colour, or by a property: perceptual colour maps
/// (viridis, turbo, grey) of t in [0, 1], the ASPRS LAS classification palette, and colorize()
/// which writes Point::rgba from elevation, intensity or class.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "pcv/core/point_cloud.hpp"

namespace pcv {

enum class ColorMap { Viridis, Turbo, Grey };
enum class ColorMode { Rgb, Elevation, Intensity, Classification };

/// Linear RGB-ish display values in [0, 1]; t is clamped to [0, 1], NaN gives the t = 0 colour.
glm::vec3 colorMapValue(ColorMap map, float t);
/// The same as packed RGBA8 (alpha 255).
uint32_t colorMapRgba(ColorMap map, float t);

/// Colour of an ASPRS standard class (LAS 1.4 table 17: 0 created/never classified, 1
/// unclassified, 2 ground ... 18 high noise); classes above 18 get a neutral grey.
uint32_t classificationRgba(uint32_t asprsClass);
/// Name of an ASPRS class ("ground", "building" ...), "class N" beyond the standard ones.
std::string classificationName(uint32_t asprsClass);

/// "rgb", "elevation", "intensity", "classification".
std::vector<std::string> colorModeNames();
/// Throws InputError listing the known names.
ColorMode parseColorMode(const std::string& name);
std::string colorModeName(ColorMode mode);

/// Rewrites every point's colour. Rgb keeps the file's colours when PointCloud::hasColor;
/// otherwise, and for Intensity/Classification without that attribute, falls back to Elevation.
/// Elevation and intensity are mapped between their 1st and 99th percentiles, so a few outliers
/// do not flatten the ramp; elevation uses `map`, intensity grey. Returns the mode actually used.
ColorMode colorize(PointCloud& cloud, ColorMode mode, ColorMap map = ColorMap::Turbo);

}  // namespace pcv
