/// @brief The rendering-quality options shared by `pcv render`, `pcv bench` and `pcv view`
/// (point size, hole filling, eye-dome lighting, high quality, background), so the three
/// commands spell them the same way.
#pragma once

#include <cstdint>
#include <string>

#include <CLI/CLI.hpp>

#include "pcv/raster/render_settings.hpp"

namespace pcv::app {

struct QualityOptions {
  int pointSizePx = 1;                    ///< --point-size
  PointShape shape = PointShape::Square;  ///< --point-shape
  float worldSize = 0.0f;                 ///< --world-size; > 0 switches to world-space sizes
  int maxPointSizePx = kMaxPointSizePx;   ///< --max-point-size
  int fillRadiusPx = 0;                   ///< --fill-holes
  EdlMode edl = EdlMode::Auto;            ///< --edl; auto: on for clouds without colour
  float edlStrength = 1.0f;               ///< --edl-strength
  int edlRadiusPx = 1;                    ///< --edl-radius
  bool highQuality = false;               ///< --hq
  float hqDepthRange = 0.01f;             ///< --hq-range
  std::string background = "000000";      ///< --background
  std::string backgroundTop;              ///< --background-top; given: a vertical gradient
};

/// Adds the options to `command`; `options` must outlive the parse.
void addQualityOptions(CLI::App& command, QualityOptions& options);

/// Writes the options into `settings` (quality and background) and validates them; --edl auto
/// stays EdlMode::Auto, which the renderer decides per frame from the sets it draws. Throws
/// InputError for bad values.
void applyQualityOptions(const QualityOptions& options, RenderSettings& settings);

/// "RRGGBB", "#RRGGBB" (hex) or "R,G,B" (0..255) as opaque packed RGBA8; throws InputError.
uint32_t parseColor(const std::string& text);

}  // namespace pcv::app
