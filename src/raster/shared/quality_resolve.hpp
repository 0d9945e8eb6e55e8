/// @brief The per-pixel passes of the quality pipeline, after the raster: hole filling
/// (adaptive point size), and a resolve with high-quality blending, eye-dome lighting and a
/// gradient background. Written once for both compilers; the CPU backend is the oracle.
#pragma once

#include <cstdint>

#include "pcv/core/float_math.hpp"
#include "pcv/core/host_device.hpp"
#include "pcv/core/log_exp.hpp"
#include "pcv/core/point.hpp"
#include "shared/framebuffer_word.hpp"
#include "pcv/raster/quality_settings.hpp"

namespace pcv {

/// A neighbour only fills a pixel when it is closer by more than this factor: pixels of one
/// sloped surface differ by less, a hole that shows a surface behind differs by more.
constexpr float kFillBehindFactor = 1.02f;
/// Potree's eye-dome lighting scale (exp(-300 * strength * response)), times log2(e) because
/// the shading goes through exp2.
constexpr float kEdlScale = 300.0f * 1.44269504089f;
/// High-quality accumulators per pixel: red, green, blue sums and the count. 32-bit sums are
/// exact up to 2^32 / 255 = 16,843,009 points blended into one pixel.
constexpr int kAccumulatorsPerPixel = 4;

struct FillParams {
  const uint64_t* words;  ///< the raster's framebuffer
  uint64_t* filled;       ///< written: the framebuffer with holes filled
  int width, height;      ///< pixels
  int radiusPx;           ///< search radius, 1 .. kMaxFillRadiusPx
};

/// The pixel's word, or the closest neighbour's within the radius when the pixel is empty or
/// more than kFillBehindFactor farther than it, and such closer neighbours lie in at least 3
/// of the 4 quadrants around it (a hole, not the outside of a silhouette).
PCV_HOST_DEVICE inline uint64_t filledWord(const FillParams& p, int x, int y) {
  const uint64_t own = p.words[uint32_t(y) * uint32_t(p.width) + uint32_t(x)];
  const float ownDepth = depthOfWord(own);
  uint64_t closest[4] = {kEmptyPixel, kEmptyPixel, kEmptyPixel, kEmptyPixel};
  const int r = p.radiusPx;
  for (int dy = -r; dy <= r; ++dy) {
    if (y + dy < 0 || y + dy >= p.height) continue;
    for (int dx = -r; dx <= r; ++dx) {
      if (x + dx < 0 || x + dx >= p.width || (dx == 0 && dy == 0)) continue;
      const uint64_t n = p.words[uint32_t(y + dy) * uint32_t(p.width) + uint32_t(x + dx)];
      if (n == kEmptyPixel) continue;
      if (own != kEmptyPixel && !(depthOfWord(n) * kFillBehindFactor < ownDepth)) continue;
      // Quadrants turn into each other by quarter turns, so none is favoured.
      const int quadrant = dx > 0 && dy >= 0 ? 0 : (dx <= 0 && dy > 0 ? 1 : (dx < 0 ? 2 : 3));
      if (n < closest[quadrant]) closest[quadrant] = n;
    }
  }
  int found = 0;
  uint64_t best = kEmptyPixel;
  for (int q = 0; q < 4; ++q) {
    found += closest[q] != kEmptyPixel;
    if (closest[q] < best) best = closest[q];
  }
  return found >= 3 ? best : own;
}

struct QualityResolveParams {
  const uint64_t* words;         ///< framebuffer (after filling), payload = compact point index
  const uint32_t* colors;        ///< RGBA8 per point
  const uint32_t* accumulators;  ///< kAccumulatorsPerPixel per pixel, or null without HQ
  int width, height;             ///< pixels
  uint32_t backgroundBottom;     ///< packed RGBA8 of row 0 (or of every row without gradient)
  uint32_t backgroundTop;        ///< packed RGBA8 of the top row
  bool gradient;                 ///< vertical gradient between the two
  bool edl;                      ///< eye-dome lighting on
  int edlRadiusPx;               ///< distance of the axis neighbours
  int edlDiagonalPx;             ///< distance of the diagonal neighbours along each axis
  float edlFactor;               ///< kEdlScale * strength / 8 neighbours
};

inline QualityResolveParams makeQualityResolveParams(const QualitySettings& q, uint32_t background,
                                                     int width, int height) {
  QualityResolveParams p{};
  p.width = width;
  p.height = height;
  p.backgroundBottom = background;
  p.backgroundTop = q.backgroundGradient ? q.backgroundTop : background;
  p.gradient = q.backgroundGradient;
  p.edl = q.edl == EdlMode::On;
  p.edlRadiusPx = q.edlRadiusPx;
  // r / sqrt(2) rounded, at least 1: the diagonal neighbours sit on the same circle.
  p.edlDiagonalPx = int(float(q.edlRadiusPx) * 0.70710678f + 0.5f);
  if (p.edlDiagonalPx < 1) p.edlDiagonalPx = 1;
  p.edlFactor = kEdlScale * q.edlStrength * 0.125f;
  return p;
}

/// Row y of a vertical gradient, per channel in exact integers: bottom at row 0, top at the last.
PCV_HOST_DEVICE PCV_FORCE_INLINE uint32_t backgroundAt(const QualityResolveParams& p, int y) {
  if (!p.gradient || p.height < 2) return p.backgroundBottom;
  const uint32_t span = uint32_t(p.height - 1), up = uint32_t(y), down = span - up;
  uint32_t out = 0;
  for (int shift = 0; shift < 32; shift += 8) {
    const uint32_t b = (p.backgroundBottom >> shift) & 0xffu,
                   t = (p.backgroundTop >> shift) & 0xffu;
    out |= ((b * down + t * up + span / 2) / span) << shift;
  }
  return out;
}

/// Eye-dome lighting: exp(-strength * 300 * mean over 8 neighbours of max(0, log2 depth -
/// log2 neighbour depth)). Only closer neighbours darken, so the far side of a depth edge gets
/// the dark line and a flat area keeps factor 1 exactly. Empty and off-image neighbours count 0.
PCV_HOST_DEVICE inline float edlShade(const QualityResolveParams& p, int x, int y, float depth) {
  const float logDepth = fastLog2(depth);
  const int r = p.edlRadiusPx, d = p.edlDiagonalPx;
  const int offsets[8][2] = {{r, 0}, {-r, 0}, {0, r}, {0, -r}, {d, d}, {-d, d}, {d, -d}, {-d, -d}};
  float sum = 0.0f;
  for (int k = 0; k < 8; ++k) {
    const int nx = x + offsets[k][0], ny = y + offsets[k][1];
    if (nx < 0 || ny < 0 || nx >= p.width || ny >= p.height) continue;
    const uint64_t n = p.words[uint32_t(ny) * uint32_t(p.width) + uint32_t(nx)];
    if (n == kEmptyPixel) continue;
    const float difference = logDepth - fastLog2(depthOfWord(n));
    if (difference > 0.0f) sum += difference;
  }
  return fastExp2(-(sum * p.edlFactor));
}

/// Each colour channel times shade, rounded; alpha kept. shade == 1 leaves the colour as is.
PCV_HOST_DEVICE PCV_FORCE_INLINE uint32_t shadeColor(uint32_t rgba, float shade) {
  uint32_t out = rgba & 0xff000000u;
  for (int shift = 0; shift < 24; shift += 8) {
    out |= uint32_t(float((rgba >> shift) & 0xffu) * shade + 0.5f) << shift;
  }
  return out;
}

/// The pixel's final colour: background where no point is; else the winner's colour, or with
/// high quality the rounded mean of the blended colours; then eye-dome lighting.
PCV_HOST_DEVICE inline uint32_t resolveQualityPixel(const QualityResolveParams& p, int x, int y) {
  const uint32_t pixel = uint32_t(y) * uint32_t(p.width) + uint32_t(x);
  const uint64_t word = p.words[pixel];
  if (word == kEmptyPixel) return backgroundAt(p, y);
  uint32_t color = p.colors[payloadOfWord(word)];
  if (p.accumulators) {
    const uint32_t* sums = p.accumulators + uint64_t(pixel) * kAccumulatorsPerPixel;
    const uint32_t count = sums[3];
    if (count > 0) {
      color = packRgba((sums[0] + count / 2) / count, (sums[1] + count / 2) / count,
                       (sums[2] + count / 2) / count, 255);
    }
  }
  if (p.edl) color = shadeColor(color, edlShade(p, x, y, depthOfWord(word)));
  return color;
}

/// Whether a point at view distance `depth` blends into a pixel whose closest word is `word`.
PCV_HOST_DEVICE PCV_FORCE_INLINE bool blendsInto(uint64_t word, float depth, float depthScale) {
  return word != kEmptyPixel && depth <= depthOfWord(word) * depthScale;
}

}  // namespace pcv
