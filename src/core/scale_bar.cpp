#include "pcv/core/scale_bar.hpp"

#include <cmath>
#include <algorithm>
#include <cstdio>
#include <cstring>

#include "pcv/core/point.hpp"

namespace pcv {

ScaleBar scaleBarFor(double unitsPerPixel, double maxPx, const LengthUnit& unit) {
  ScaleBar bar;
  bar.unit = unit;
  if (!(unitsPerPixel > 0.0) || !(maxPx >= 1.0) || !std::isfinite(unitsPerPixel)) return bar;
  const double maxUnits = unitsPerPixel * maxPx;
  const double power = std::pow(10.0, std::floor(std::log10(maxUnits)));
  for (const double step : {5.0, 2.0, 1.0}) {
    if (step * power <= maxUnits * (1.0 + 1e-12)) {
      bar.lengthUnits = step * power;
      break;
    }
  }
  bar.lengthPx = bar.lengthUnits / unitsPerPixel;
  char text[32];
  std::snprintf(text, sizeof text, "%.10g", bar.lengthUnits);
  bar.label = text;
  if (unit.known()) bar.label += ' ' + unit.symbol();
  return bar;
}

namespace {

/// 3 x 5 glyphs, one row per 3 bits (top row first), for digits, '.' and '-', and the letters
/// of the unit symbols ("m", "ft", "ftUS"); other characters are blank.
int glyphRows(char c, int row) {
  static constexpr char kLetterNames[] = "mftUS";
  static const int letters[][5] = {
      {0, 6, 7, 5, 5}, {3, 4, 7, 4, 4}, {2, 7, 2, 2, 3}, {5, 5, 5, 5, 7}, {3, 4, 2, 1, 6}};
  if (const char* found = std::strchr(kLetterNames, c); found && c != '\0') {
    return letters[found - kLetterNames][row];
  }
  static const int digits[10][5] = {
      {7, 5, 5, 5, 7}, {2, 6, 2, 2, 7}, {7, 1, 7, 4, 7}, {7, 1, 7, 1, 7}, {5, 5, 7, 1, 1},
      {7, 4, 7, 1, 7}, {7, 4, 7, 5, 7}, {7, 1, 1, 1, 1}, {7, 5, 7, 5, 7}, {7, 5, 7, 1, 7}};
  if (c >= '0' && c <= '9') return digits[c - '0'][row];
  if (c == '.') return row == 4 ? 2 : 0;
  if (c == '-') return row == 2 ? 7 : 0;
  return 0;
}

void fill(Image& image, int x0, int y0, int width, int height, uint32_t rgba) {
  for (int y = std::max(y0, 0); y < std::min(y0 + height, image.height); ++y) {
    for (int x = std::max(x0, 0); x < std::min(x0 + width, image.width); ++x) image.at(x, y) = rgba;
  }
}

}  // namespace

void drawScaleBar(Image& image, const ScaleBar& bar, uint32_t rgba) {
  if (!(bar.lengthPx >= 1.0)) return;
  const int margin = 10, scale = 3;  // glyph pixels are 3 x 3
  const int length = int(std::lround(bar.lengthPx));
  const uint32_t outline = packRgba(0, 0, 0);
  // The bar, 3 px thick, with 8 px ticks at both ends, outlined.
  fill(image, margin - 1, margin - 1, length + 2, 5, outline);
  fill(image, margin, margin, length, 3, rgba);
  for (const int x : {margin, margin + length - 2}) {
    fill(image, x - 1, margin - 1, 4, 10, outline);
    fill(image, x, margin, 2, 8, rgba);
  }
  // The length above the bar's left end.
  int x = margin;
  const int top = margin + 12 + 5 * scale;
  for (const char c : bar.label) {
    for (int row = 0; row < 5; ++row) {
      const int bits = glyphRows(c, row);
      for (int column = 0; column < 3; ++column) {
        if (bits & (4 >> column))
          fill(image, x + column * scale, top - (row + 1) * scale, scale, scale, rgba);
      }
    }
    x += 4 * scale;
  }
}

}  // namespace pcv
