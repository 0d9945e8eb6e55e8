/// @brief Points wider than one pixel: the footprint (square or round, fixed in pixels or sized
/// by world size and distance) each point writes with the same 64-bit depth|index minimum, so
/// ties stay deterministic. Written once for both compilers: the CPU backend is the oracle.
#pragma once

#include <math.h>

#include <cmath>
#include <cstdint>

#include "pcv/core/float_math.hpp"
#include "pcv/core/host_device.hpp"
#include "shared/compact_points.hpp"
#include "pcv/raster/quality_settings.hpp"

namespace pcv {

/// What the per-point splat code needs of the settings, for one frame; passed by value.
struct SplatFrame {
  int width, height;    ///< image size in pixels
  uint32_t sizePx;      ///< Screen mode: footprint width, 1 .. kMaxPointSizePx
  uint32_t maxSizePx;   ///< World mode: the clamp
  float worldSizeToPx;  ///< World mode: worldSize * focal length in pixels (size * w)
  float marginPx;       ///< points this far outside the image still reach into it
  bool worldSize;       ///< sizes from worldSizeToPx / w instead of sizePx
  bool orthographic;    ///< world sizes do not shrink with distance: worldSizeToPx itself
  bool round;           ///< drop the square's pixels outside the inscribed disc
};

/// The footprint's lower-left pixel and its width; the pixels are [x0, x0 + size)^2.
struct Footprint {
  int x0, y0;
  uint32_t size;
};

/// Built on the host once per frame. The focal length in pixels is 0.5 * height * |row 1 of
/// the view-projection's 3x3|: row 1 of a perspective times a rigid view is f times a unit row
/// (orthographic: 2 / the view's height times a unit row, so the same gives pixels per unit).
inline SplatFrame makeSplatFrame(const QualitySettings& q, const ViewTransform& view) {
  const float* m = view.viewProjection;
  const float focalPx =
      0.5f * float(view.height) * std::sqrt(m[1] * m[1] + m[5] * m[5] + m[9] * m[9]);
  SplatFrame s{};
  s.width = view.width;
  s.height = view.height;
  s.worldSize = q.sizeMode == PointSizeMode::World;
  s.sizePx = uint32_t(q.pointSizePx);
  s.maxSizePx = uint32_t(q.maxPointSizePx);
  s.worldSizeToPx = q.worldSize * focalPx;
  s.orthographic = view.orthographic != 0;
  s.round = q.shape == PointShape::Round;
  const uint32_t widest = s.worldSize ? s.maxSizePx : s.sizePx;
  // 0 for one-pixel points keeps exactly the plain methods' projection test.
  s.marginPx = widest <= 1 ? 0.0f : float(widest / 2 + 1);
  return s;
}

/// Footprint width of a point at view distance w: fixed, or world size / w rounded, in 1 .. max.
/// True when every footprint is the point's own pixel and nothing outside the image reaches in:
/// splatting is then exactly the plain one-pixel projection.
PCV_HOST_DEVICE PCV_FORCE_INLINE bool isSinglePixel(const SplatFrame& s) {
  return !s.worldSize && s.sizePx == 1 && s.marginPx == 0.0f;
}

PCV_HOST_DEVICE PCV_FORCE_INLINE uint32_t splatSizePx(const SplatFrame& s, float w) {
  if (!s.worldSize) return s.sizePx;
  const float px = (s.orthographic ? s.worldSizeToPx : s.worldSizeToPx / w) + 0.5f;
  return !(px >= 1.0f) ? 1u : (px >= float(s.maxSizePx) ? s.maxSizePx : uint32_t(px));
}

/// Centred on the point: an odd size around the pixel the point falls in (so size 1 is exactly
/// the plain methods' pixel), an even size around the pixel corner nearest to the point.
PCV_HOST_DEVICE PCV_FORCE_INLINE Footprint footprintAt(float pixelX, float pixelY, uint32_t size) {
  const int half = int(size / 2);
  if (size & 1u) return {int(floorf(pixelX)) - half, int(floorf(pixelY)) - half, size};
  return {int(floorf(pixelX + 0.5f)) - half, int(floorf(pixelY + 0.5f)) - half, size};
}

/// Whether pixel (dx, dy) of a size x size footprint is drawn; exact integer test for discs.
PCV_HOST_DEVICE PCV_FORCE_INLINE bool footprintCovers(uint32_t size, bool round, int dx, int dy) {
  if (!round) return true;
  const int a = 2 * dx + 1 - int(size), b = 2 * dy + 1 - int(size);
  return a * a + b * b <= int(size * size);
}

/// Calls visit(pixel index) for each footprint pixel inside the image.
template <typename Visit>
PCV_HOST_DEVICE PCV_FORCE_INLINE void forEachFootprintPixel(const SplatFrame& s, const Footprint& f,
                                                            Visit&& visit) {
  const int size = int(f.size);
  const int yBegin = f.y0 < 0 ? 0 : f.y0, yEnd = f.y0 + size > s.height ? s.height : f.y0 + size;
  const int xBegin = f.x0 < 0 ? 0 : f.x0, xEnd = f.x0 + size > s.width ? s.width : f.x0 + size;
  for (int y = yBegin; y < yEnd; ++y) {
    for (int x = xBegin; x < xEnd; ++x) {
      if (footprintCovers(f.size, s.round, x - f.x0, y - f.y0)) {
        visit(uint32_t(y) * uint32_t(s.width) + uint32_t(x));
      }
    }
  }
}

/// Projects compact point `index` (position word `word`) and calls visit(pixel, viewDepth) for
/// each pixel of its footprint. The raster and the high-quality accumulation share this.
template <typename Visit>
PCV_HOST_DEVICE PCV_FORCE_INLINE void splatQuantized(const SplatFrame& s,
                                                     const BatchProjection& projection,
                                                     uint32_t word, Visit&& visit) {
  ScreenPoint point;
  if (!projectQuantizedToScreen<true, true>(projection, word, point, s.marginPx)) return;
  const Footprint footprint = footprintAt(point.x, point.y, splatSizePx(s, point.w));
  forEachFootprintPixel(s, footprint, [&](uint32_t pixel) { visit(pixel, point.w); });
}

}  // namespace pcv
