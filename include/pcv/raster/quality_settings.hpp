/// @brief The rendering-quality settings: point size and shape, hole filling, eye-dome lighting,
/// high-quality blending and a gradient background. Defaults draw exactly what the plain methods
/// draw (one pixel per point, closest point wins, flat background), so the fast path stays as is.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "pcv/core/named_values.hpp"
#include "pcv/core/point.hpp"

namespace pcv {

/// How a point's footprint size is chosen.
enum class PointSizeMode : uint8_t {
  Screen,  ///< pointSizePx pixels wide wherever the point is
  World,   ///< worldSize units wide: pixels = worldSize * focal / view distance, clamped
};

enum class PointShape : uint8_t {
  Square,  ///< size x size pixels
  Round,   ///< the pixels of the size x size square whose centres lie in the inscribed disc
};

constexpr int kMaxPointSizePx = 16;  ///< the largest footprint, pixels per side
constexpr int kMaxFillRadiusPx = 8;  ///< the widest hole-filling search, pixels
constexpr int kMaxEdlRadiusPx = 8;   ///< the farthest eye-dome lighting neighbour, pixels

/// Eye-dome lighting: off, on, or on exactly when a drawn set has no colour of its own (the
/// renderer decides per frame from the sets it draws).
enum class EdlMode : uint8_t { Off, On, Auto };

struct QualitySettings {
  PointSizeMode sizeMode = PointSizeMode::Screen;
  PointShape shape = PointShape::Square;
  int pointSizePx = 1;                   ///< Screen mode: footprint width in pixels, 1 .. 16
  float worldSize = 0.01f;               ///< World mode: point diameter in world units (> 0)
  int maxPointSizePx = kMaxPointSizePx;  ///< World mode: footprints are clamped to 1 .. this
  /// Adaptive size: a pass after the raster fills a pixel that is empty, or far behind its
  /// neighbours, from the closest point within this many pixels, when closer points surround it
  /// (3 of 4 quadrants), so holes close but silhouettes do not grow. 0 = off; 1 .. 8.
  int fillRadiusPx = 0;

  EdlMode edl = EdlMode::Off;  ///< eye-dome lighting: darken where neighbours are closer
  float edlStrength = 1.0f;    ///< multiplies the log-depth response (Potree's 300 * strength)
  int edlRadiusPx = 1;         ///< distance of the 8 neighbours, 1 .. 8 pixels

  bool highQuality = false;    ///< average the colours of all points near the closest depth
  float hqDepthRange = 0.01f;  ///< relative: points with depth <= closest * (1 + this) blend

  bool backgroundGradient = false;        ///< vertical gradient from background to backgroundTop
  uint32_t backgroundTop = kOpaqueBlack;  ///< packed RGBA8 of the top row with the gradient
};

/// True when any setting differs from what the plain methods draw; the backends then draw the
/// frame with the quality pipeline (from the compact layout) whatever the method.
inline bool needsQualityPipeline(const QualitySettings& q) {
  return q.sizeMode == PointSizeMode::World || q.pointSizePx != 1 || q.fillRadiusPx > 0 ||
         q.edl == EdlMode::On || q.highQuality || q.backgroundGradient;
}

/// `q` with EdlMode::Auto decided: on when the frame draws points without colour of their own.
inline QualitySettings withEdlDecided(QualitySettings q, bool drawsColorless) {
  if (q.edl == EdlMode::Auto) q.edl = drawsColorless ? EdlMode::On : EdlMode::Off;
  return q;
}

/// Throws InputError naming the setting when a value is out of its range.
void validateQualitySettings(const QualitySettings& q);

/// The names of --point-shape and pcv.render(point_shape=...): "square", "round".
const NameTable<PointShape>& pointShapeTable();
std::vector<std::string> pointShapeNames();
/// Throws UnknownNameError listing the known names.
PointShape parsePointShape(std::string_view name);
const char* pointShapeName(PointShape shape);

/// The names of --edl and pcv.render(edl=...): "off", "on", "auto".
const NameTable<EdlMode>& edlModeTable();
std::vector<std::string> edlModeNames();
/// Throws UnknownNameError listing the known names.
EdlMode parseEdlMode(std::string_view name);
const char* edlModeName(EdlMode mode);

}  // namespace pcv
