// The per-pixel passes of the quality pipeline (hole filling, high-quality blending, eye-dome
// lighting, gradient background): the GLSL twin of src/raster/shared/quality_resolve.hpp.
#ifndef PCV_QUALITY_RESOLVE_GLSL
#define PCV_QUALITY_RESOLVE_GLSL

#include "frame_params.glsl"

#define kFillBehindFactor uintBitsToFloat(0x3f828f5cu)  // 1.02f

uint64_t filledWord(int x, int y) {
  const int width = pc.frame.view.width, height = pc.frame.view.height;
  const uint64_t own = pc.frame.words.at[uint(y) * uint(width) + uint(x)];
  const float ownDepth = depthOfWord(own);
  uint64_t closest[4] = uint64_t[4](kEmptyPixel, kEmptyPixel, kEmptyPixel, kEmptyPixel);
  const int r = pc.frame.shade.fillRadiusPx;
  for (int dy = -r; dy <= r; ++dy) {
    if (y + dy < 0 || y + dy >= height) continue;
    for (int dx = -r; dx <= r; ++dx) {
      if (x + dx < 0 || x + dx >= width || (dx == 0 && dy == 0)) continue;
      const uint64_t n = pc.frame.words.at[uint(y + dy) * uint(width) + uint(x + dx)];
      if (n == kEmptyPixel) continue;
      precise float nearer = depthOfWord(n) * kFillBehindFactor;
      if (own != kEmptyPixel && !(nearer < ownDepth)) continue;
      const int quadrant = dx > 0 && dy >= 0 ? 0 : (dx <= 0 && dy > 0 ? 1 : (dx < 0 ? 2 : 3));
      if (n < closest[quadrant]) closest[quadrant] = n;
    }
  }
  int found = 0;
  uint64_t best = kEmptyPixel;
  for (int q = 0; q < 4; ++q) {
    found += closest[q] != kEmptyPixel ? 1 : 0;
    if (closest[q] < best) best = closest[q];
  }
  return found >= 3 ? best : own;
}

uint backgroundAt(int y) {
  const ShadeFrame s = pc.frame.shade;
  const int height = pc.frame.view.height;
  if (s.gradient == 0u || height < 2) return s.backgroundBottom;
  const uint span = uint(height - 1), up = uint(y), down = span - up;
  uint result = 0u;
  for (uint shift = 0u; shift < 32u; shift += 8u) {
    const uint b = (s.backgroundBottom >> shift) & 0xffu, t = (s.backgroundTop >> shift) & 0xffu;
    result |= ((b * down + t * up + span / 2u) / span) << shift;
  }
  return result;
}

// The words the shading reads: the filled ones after hole filling, else the raster's.
uint64_t shadedWordAt(uint pixel) {
  return pc.frame.shade.fillRadiusPx > 0 ? pc.frame.filled.at[pixel] : pc.frame.words.at[pixel];
}

float edlShade(int x, int y, float depth) {
  const int width = pc.frame.view.width, height = pc.frame.view.height;
  const float logDepth = fastLog2(depth);
  const int r = pc.frame.shade.edlRadiusPx, d = pc.frame.shade.edlDiagonalPx;
  const ivec2 offsets[8] = ivec2[8](ivec2(r, 0), ivec2(-r, 0), ivec2(0, r), ivec2(0, -r),
                                    ivec2(d, d), ivec2(-d, d), ivec2(d, -d), ivec2(-d, -d));
  precise float sum = 0.0;
  for (int k = 0; k < 8; ++k) {
    const int nx = x + offsets[k].x, ny = y + offsets[k].y;
    if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
    const uint64_t n = shadedWordAt(uint(ny) * uint(width) + uint(nx));
    if (n == kEmptyPixel) continue;
    precise float difference = logDepth - fastLog2(depthOfWord(n));
    if (difference > 0.0) sum += difference;
  }
  precise float exponent = -(sum * pc.frame.shade.edlFactor);
  return fastExp2(exponent);
}

uint shadeColor(uint rgba, float shade) {
  uint result = rgba & 0xff000000u;
  for (uint shift = 0u; shift < 24u; shift += 8u) {
    precise float channel = float((rgba >> shift) & 0xffu) * shade + 0.5;
    result |= uint(channel) << shift;
  }
  return result;
}

uint packRgba(uint r, uint g, uint b, uint a) {
  return r | (g << 8) | (b << 16) | (a << 24);
}

uint resolveQualityPixel(int x, int y) {
  const uint pixel = uint(y) * uint(pc.frame.view.width) + uint(x);
  const uint64_t word = shadedWordAt(pixel);
  if (word == kEmptyPixel) return backgroundAt(y);
  uint color = colorAt(payloadOfWord(word));
  if (pc.frame.shade.highQuality != 0u) {
    const uint base = pixel * 4u;
    const uint count = pc.frame.accumulators.at[base + 3u];
    if (count > 0u) {
      color = packRgba((pc.frame.accumulators.at[base] + count / 2u) / count,
                       (pc.frame.accumulators.at[base + 1u] + count / 2u) / count,
                       (pc.frame.accumulators.at[base + 2u] + count / 2u) / count, 255u);
    }
  }
  if (pc.frame.shade.edl != 0u) color = shadeColor(color, edlShade(x, y, depthOfWord(word)));
  return color;
}

#endif
