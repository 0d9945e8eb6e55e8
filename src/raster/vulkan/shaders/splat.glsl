// Points wider than a pixel: the GLSL twin of src/raster/shared/splat.hpp.
#ifndef PCV_SPLAT_GLSL
#define PCV_SPLAT_GLSL

#include "frame_params.glsl"

uint splatSizePx(float w) {
  const SplatFrame s = pc.frame.splat;
  if (s.worldSize == 0u) return s.sizePx;
  precise float scaled = s.orthographic != 0u ? s.worldSizeToPx : divideExact(s.worldSizeToPx, w);
  precise float px = scaled + 0.5;
  return !(px >= 1.0) ? 1u : (px >= float(s.maxSizePx) ? s.maxSizePx : uint(px));
}

// The footprint's lower-left pixel (.xy) and width (.z).
ivec3 footprintAt(float pixelX, float pixelY, uint size) {
  const int halfSize = int(size / 2u);
  if ((size & 1u) != 0u) return ivec3(int(floor(pixelX)) - halfSize, int(floor(pixelY)) - halfSize, int(size));
  precise float centreX = pixelX + 0.5, centreY = pixelY + 0.5;
  return ivec3(int(floor(centreX)) - halfSize, int(floor(centreY)) - halfSize, int(size));
}

bool footprintCovers(uint size, bool round, int dx, int dy) {
  if (!round) return true;
  const int a = 2 * dx + 1 - int(size), b = 2 * dy + 1 - int(size);
  return a * a + b * b <= int(size * size);
}

#endif
