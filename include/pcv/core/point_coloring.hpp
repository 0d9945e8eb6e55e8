/// @brief Display colours computed from a cloud's own data without changing it: the file's RGB,
/// a colour map over any scalar attribute or coordinate with an automatic (percentile) or typed
/// range, or the ASPRS class palette. The cloud keeps its colours and attributes, so a viewer can
/// switch modes back and forth without losing anything.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "pcv/core/color_map.hpp"
#include "pcv/core/point_cloud.hpp"
#include "pcv/core/uninitialized_vector.hpp"

namespace pcv {

/// Values mapped to the ends of a colour map; in the attribute's own units (world units for
/// coordinates, so an elevation range reads as metres above the datum, not as offsets).
struct ValueRange {
  double low = 0.0;
  double high = 1.0;
};

/// The `lowQuantile` and `highQuantile` values (0..1, linear between order statistics) of the
/// finite values, each plus `offset`; sampled down to about 1 M values so any cloud costs little.
/// Flat or empty data gives a range of width 1 around its value, so t stays finite.
ValueRange percentileRange(std::span<const float> values, double lowQuantile = 0.02,
                           double highQuantile = 0.98, double offset = 0.0);

/// "MIN,MAX" with finite MIN < MAX; throws InputError otherwise.
ValueRange parseValueRange(const std::string& text);

/// What to colour by; every field has a default that reproduces `pcv render --color rgb`.
struct ColoringOptions {
  ColorMode mode = ColorMode::Rgb;
  /// ColorMode::Attribute: a scalar attribute of the cloud ("intensity", "return_number" ...) or a
  /// world coordinate ("x", "y", "z").
  std::string attribute;
  /// Unset: turbo for elevation, grey for intensity (reads like a photo), viridis otherwise.
  std::optional<ColorMap> map;
  /// Unset: the 2nd to 98th percentile of the values, so a few outliers do not flatten the ramp.
  std::optional<ValueRange> range;
};

/// What colorPoints actually did, for legends and messages.
struct Coloring {
  ColorMode mode = ColorMode::Rgb;  ///< may differ from the request (see `note`)
  std::string attribute;            ///< the scalar mapped ("z" for elevation); empty otherwise
  ColorMap map = ColorMap::Turbo;   ///< the map used for scalar modes
  ValueRange range;                 ///< the range used for scalar modes
  std::vector<uint32_t> classes;    ///< Classification: the classes present, ascending
  std::string note;                 ///< why the mode differs from the request; empty if it does not
};

/// Names a cloud can be coloured by in ColorMode::Attribute: its attributes, then x, y, z.
std::vector<std::string> colorableAttributes(const PointCloud& cloud);

/// One RGBA8 per point into `rgba` (cloud.size() entries). Rgb without colours in the data and
/// Intensity/Classification without that attribute fall back to elevation (and say so in
/// `note`). Throws InputError when ColorMode::Attribute names no attribute of the cloud, listing
/// the ones it has.
Coloring colorPoints(const PointCloud& cloud, const ColoringOptions& options,
                     std::span<uint32_t> rgba);

/// The colours colorPoints gave with the outcome `used` (its mode, scalar, map and range as
/// settled), for the points `indices` only, one per index into `rgba`: what some points' colours
/// become after their values changed, without colouring the others again.
void colorPointsAt(const PointCloud& cloud, const Coloring& used, std::span<const uint64_t> indices,
                   std::span<uint32_t> rgba);

/// The cloud's points with the colours of `options` (positions unchanged), to hand to a
/// renderer; the cloud itself keeps its own colours.
Coloring coloredPoints(const PointCloud& cloud, const ColoringOptions& options,
                       UninitializedVector<Point>& out);

/// Rewrites every point's colour with those of `options`, in place: coloredPoints without the
/// copy, for a cloud whose own colours are not needed again (a streamed node once decoded).
Coloring recolorPoints(PointCloud& cloud, const ColoringOptions& options);

/// Rewrites every point's colour in place (for one-shot renders, where the file's colours are
/// not needed again): colorPoints with `mode`, `map` for elevation, grey for intensity. Returns
/// the mode actually used.
ColorMode colorize(PointCloud& cloud, ColorMode mode, ColorMap map = ColorMap::Turbo);

}  // namespace pcv
