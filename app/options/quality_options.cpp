#include "options/quality_options.hpp"

#include <charconv>

#include "options/named_option.hpp"
#include "pcv/core/error.hpp"

namespace pcv::app {

uint32_t parseColor(const std::string& text) {
  const std::string hex = !text.empty() && text[0] == '#' ? text.substr(1) : text;
  const char* end = hex.data() + hex.size();
  uint32_t value = 0;
  if (hex.size() == 6) {
    const auto parsed = std::from_chars(hex.data(), end, value, 16);
    if (parsed.ec == std::errc() && parsed.ptr == end) {
      return packRgba(value >> 16, (value >> 8) & 0xffu, value & 0xffu);
    }
  }
  uint32_t channel[3];
  const char* cursor = text.data();
  const char* textEnd = text.data() + text.size();
  for (int i = 0; i < 3; ++i) {
    const auto parsed = std::from_chars(cursor, textEnd, channel[i]);
    const bool separatorOk =
        i < 2 ? (parsed.ptr < textEnd && *parsed.ptr == ',') : parsed.ptr == textEnd;
    if (parsed.ec != std::errc() || channel[i] > 255 || !separatorOk) {
      throw InputError("bad colour '" + text + "': expected RRGGBB (hex) or R,G,B (0..255)");
    }
    cursor = parsed.ptr + 1;
  }
  return packRgba(channel[0], channel[1], channel[2]);
}

void addQualityOptions(CLI::App& command, QualityOptions& o) {
  command.add_option("--point-size", o.pointSizePx, "Point width in pixels, 1..16")
      ->capture_default_str();
  addNamedOption(command, "--point-shape", o.shape, pointShapeTable(),
                 "Point footprint: square or round");
  command
      .add_option("--world-size", o.worldSize,
                  "Point diameter in world units, shrinking with distance (0: use --point-size)")
      ->capture_default_str();
  command
      .add_option("--max-point-size", o.maxPointSizePx,
                  "With --world-size: the largest footprint in pixels, 1..16")
      ->capture_default_str();
  command
      .add_option("--fill-holes", o.fillRadiusPx,
                  "Adaptive size: fill holes from the closest point within this many pixels "
                  "(0: off, 1..8)")
      ->capture_default_str();
  addNamedOption(command, "--edl", o.edl, edlModeTable(),
                 "Eye-dome lighting: on, off or auto (on for files without colour)");
  command.add_option("--edl-strength", o.edlStrength, "Eye-dome lighting strength")
      ->capture_default_str();
  command.add_option("--edl-radius", o.edlRadiusPx, "Eye-dome lighting radius in pixels, 1..8")
      ->capture_default_str();
  command.add_flag("--hq", o.highQuality,
                   "High quality: average the colours of the points near the closest depth");
  command
      .add_option("--hq-range", o.hqDepthRange,
                  "With --hq: relative depth range that blends (0.01: within 1 %)")
      ->capture_default_str();
  command
      .add_option("--background", o.background,
                  "Background colour, RRGGBB or R,G,B (the bottom one with a gradient)")
      ->capture_default_str();
  command.add_option("--background-top", o.backgroundTop,
                     "Top colour of a vertical background gradient (default: no gradient)");
}

void applyQualityOptions(const QualityOptions& o, RenderSettings& settings) {
  QualitySettings& q = settings.quality;
  q.pointSizePx = o.pointSizePx;
  q.shape = o.shape;
  q.sizeMode = o.worldSize > 0.0f ? PointSizeMode::World : PointSizeMode::Screen;
  if (o.worldSize > 0.0f) q.worldSize = o.worldSize;
  q.maxPointSizePx = o.maxPointSizePx;
  q.fillRadiusPx = o.fillRadiusPx;
  q.edl = o.edl;
  q.edlStrength = o.edlStrength;
  q.edlRadiusPx = o.edlRadiusPx;
  q.highQuality = o.highQuality;
  q.hqDepthRange = o.hqDepthRange;
  settings.background = parseColor(o.background);
  q.backgroundGradient = !o.backgroundTop.empty();
  if (q.backgroundGradient) q.backgroundTop = parseColor(o.backgroundTop);
  if (o.worldSize < 0.0f) throw InputError("--world-size must be >= 0");
  validateQualitySettings(q);
}

}  // namespace pcv::app
