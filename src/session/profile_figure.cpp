#include "pcv/session/profile_figure.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "pcv/core/bitmap_font.hpp"
#include "pcv/core/number_text.hpp"

namespace pcv {
namespace {

constexpr int kCellPx = 8;  ///< the cells the occupied area is counted in

/// The pixel column and row (row 0 at the bottom) whose centre is nearest (distance, z).
glm::dvec2 pixelOf(const Camera& camera, int widthPx, int heightPx, double distance, double z) {
  const double unitsPerPixel = camera.orthoWidth / double(widthPx);
  return {(distance - camera.eye.x) / unitsPerPixel + 0.5 * widthPx - 0.5,
          (z - camera.eye.z) / unitsPerPixel + 0.5 * heightPx - 0.5};
}

void fillRect(Image& image, int x0, int y0, int width, int height, uint32_t rgba) {
  for (int y = std::max(y0, 0); y < std::min(y0 + height, image.height); ++y) {
    for (int x = std::max(x0, 0); x < std::min(x0 + width, image.width); ++x) image.at(x, y) = rgba;
  }
}

/// Enough decimals to tell ticks `step` apart (steps are 1, 2 or 5 x 10^k).
int decimalsFor(double step) {
  return std::max(0, -int(std::floor(std::log10(step) + 1e-9)));
}

std::string axisName(const char* name, const LengthUnit& unit) {
  return unit.known() ? std::string(name) + " (" + unit.symbol() + ")" : std::string(name);
}

}  // namespace

int ProfileFigureLayout::dataWidth() const {
  return width - left - right;
}
int ProfileFigureLayout::dataHeight() const {
  return height - bottom - top;
}

int profilePointSizePx(const ProfilePoints& profile, const Camera& camera, int widthPx,
                       int heightPx) {
  if (profile.size() == 0 || widthPx <= 0 || heightPx <= 0) return 1;
  const int cellsX = (widthPx + kCellPx - 1) / kCellPx, cellsY = (heightPx + kCellPx - 1) / kCellPx;
  std::vector<uint8_t> pixelHit(size_t(widthPx) * heightPx, 0), cellHit(size_t(cellsX) * cellsY, 0);
  uint64_t pixels = 0, cells = 0;
  for (size_t i = 0; i < profile.size(); ++i) {
    const glm::dvec2 at =
        pixelOf(camera, widthPx, heightPx, profile.distances[i], profile.positions[i].z);
    const long x = std::lround(at.x), y = std::lround(at.y);
    if (x < 0 || y < 0 || x >= widthPx || y >= heightPx) continue;
    uint8_t& pixel = pixelHit[size_t(y) * widthPx + size_t(x)];
    pixels += pixel == 0;
    pixel = 1;
    uint8_t& cell = cellHit[size_t(y / kCellPx) * cellsX + size_t(x / kCellPx)];
    cells += cell == 0;
    cell = 1;
  }
  if (pixels == 0) return 1;
  const double occupied = double(cells) * kCellPx * kCellPx;
  const int size = int(std::ceil(std::sqrt(occupied / (2.0 * double(pixels))) - 1e-9));
  return std::clamp(size, 1, kMaxProfilePointSizePx);
}

std::vector<double> roundTicks(double low, double high, int maxTicks) {
  std::vector<double> ticks;
  if (!(high > low) || !std::isfinite(low) || !std::isfinite(high)) return ticks;
  const double raw = (high - low) / double(std::max(maxTicks, 1));
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  double step = 10.0 * power;
  for (const double factor : {1.0, 2.0, 5.0}) {
    if (factor * power >= raw * (1.0 - 1e-9)) {
      step = factor * power;
      break;
    }
  }
  // Whole multiples of the step, each computed from its index so no error accumulates.
  for (double k = std::ceil(low / step - 1e-9); k * step <= high + step * 1e-9; k += 1.0) {
    ticks.push_back(std::abs(k) < 0.5 ? 0.0 : k * step);
  }
  return ticks;
}

std::string profileTitle(const ProfileCorridor& corridor, const LengthUnit& unit) {
  std::string title;
  for (const glm::dvec2& vertex : corridor.vertices()) {
    if (!title.empty()) title += " -> ";
    title += exactText(vertex.x) + "," + exactText(vertex.y);
  }
  title += "  width " + exactText(corridor.width());
  if (unit.known()) title += " " + unit.symbol();
  return title;
}

ProfileFigureLayout profileFigureLayout(int widthPx, int heightPx) {
  ProfileFigureLayout layout;
  layout.width = widthPx;
  layout.height = heightPx;
  // Labels twice as large on images large enough for them (the default 1600 x 600).
  const int s = widthPx >= 800 && heightPx >= 360 ? 2 : 1;
  const int charWidth = kGlyphAdvance * s, charHeight = kGlyphHeight * s;
  ProfileFigureLayout framed = layout;
  framed.glyphScale = s;
  framed.left = 8 * charWidth + 10 * s;  // numbers of 8 characters
  framed.right = 3 * charWidth;          // half the last number
  framed.bottom = 4 * s + 3 * s + charHeight + 4 * s + charHeight + 3 * s;  // ticks, numbers, name
  framed.top = 3 * s + charHeight + 4 * s + charHeight + 4 * s;             // title, elevation name
  // Too small for axes: the whole image is data.
  if (framed.dataWidth() < 64 || framed.dataHeight() < 32) return layout;
  return framed;
}

ProfileFigure renderProfileFigure(const ProfilePoints& profile, Renderer& renderer, int widthPx,
                                  int heightPx, RenderSettings settings,
                                  const ProfileFigureOptions& options) {
  const ProfileFigureLayout layout = profileFigureLayout(widthPx, heightPx);
  const int dataWidth = layout.dataWidth(), dataHeight = layout.dataHeight();
  const Camera camera = profileImageCamera(profile, dataWidth, dataHeight);
  if (options.choosePointSize) {
    settings.quality.pointSizePx = profilePointSizePx(profile, camera, dataWidth, dataHeight);
  }
  ProfileFigure figure{renderProfileImage(profile, renderer, dataWidth, dataHeight, settings),
                       settings.quality.pointSizePx};
  if (layout.left == 0) return figure;

  const Image data = std::move(figure.image);
  Image& image = figure.image;
  image = Image(widthPx, heightPx, kFigureMarginRgba);
  for (int y = 0; y < dataHeight; ++y) {
    std::copy_n(&data.pixels[size_t(y) * dataWidth], dataWidth,
                &image.pixels[size_t(y + layout.bottom) * widthPx + layout.left]);
  }
  const int s = layout.glyphScale, charHeight = kGlyphHeight * s, tick = 4 * s;
  const uint32_t ink = kFigureInkRgba;
  // The axes along the data's left and bottom edges, just outside it.
  fillRect(image, layout.left - s, layout.bottom - s, dataWidth + s, s, ink);
  fillRect(image, layout.left - s, layout.bottom - s, s, dataHeight + s, ink);

  // Distance: numbers centred under their ticks, about one per 7 characters of width.
  const glm::dvec2 low = profileImagePosition(camera, dataWidth, dataHeight, -0.5, -0.5);
  const glm::dvec2 high =
      profileImagePosition(camera, dataWidth, dataHeight, dataWidth - 0.5, dataHeight - 0.5);
  const std::vector<double> along =
      roundTicks(low.x, high.x, std::max(2, dataWidth / (7 * kGlyphAdvance * s)));
  const int alongDecimals = along.size() > 1 ? decimalsFor(along[1] - along[0]) : 0;
  const int numbersY = layout.bottom - s - tick - 3 * s - charHeight;
  for (const double value : along) {
    const int x =
        layout.left + int(std::lround(pixelOf(camera, dataWidth, dataHeight, value, 0.0).x));
    if (x < layout.left || x >= layout.left + dataWidth) continue;
    fillRect(image, x - s / 2, layout.bottom - s - tick, s, tick, ink);
    const std::string text = fixedText(value, alongDecimals);
    drawText(image, x - textWidthPx(text, s) / 2, numbersY, text, ink, s);
  }
  const std::string alongName = axisName("distance", options.unit);
  drawText(image, layout.left + (dataWidth - textWidthPx(alongName, s)) / 2, 3 * s, alongName, ink,
           s);

  // Elevation: numbers right-aligned left of their ticks, about one per 3 text lines.
  const std::vector<double> up =
      roundTicks(low.y, high.y, std::max(2, dataHeight / (3 * charHeight)));
  const int upDecimals = up.size() > 1 ? decimalsFor(up[1] - up[0]) : 0;
  for (const double value : up) {
    const int y =
        layout.bottom + int(std::lround(pixelOf(camera, dataWidth, dataHeight, 0.0, value).y));
    if (y < layout.bottom || y >= layout.bottom + dataHeight) continue;
    fillRect(image, layout.left - s - tick, y - s / 2, tick, s, ink);
    const std::string text = fixedText(value, upDecimals);
    drawText(image, layout.left - s - tick - 3 * s - textWidthPx(text, s), y - charHeight / 2, text,
             ink, s);
  }
  const LengthUnit vertical = options.verticalUnit.known() ? options.verticalUnit : options.unit;
  drawText(image, 3 * s, layout.bottom + dataHeight + 4 * s, axisName("elevation", vertical), ink,
           s);
  // The title on the top line.
  drawText(image, 3 * s, heightPx - 3 * s - charHeight, options.title, ink, s);
  return figure;
}

}  // namespace pcv
