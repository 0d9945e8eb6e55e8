// The compact layout's per-batch projection and per-point test: the GLSL twin of
// src/raster/shared/compact_points.hpp, statement for statement, so the pixels match the CPU
// backend's bit for bit (the pixel tests enforce it).
#ifndef PCV_COMPACT_POINTS_GLSL
#define PCV_COMPACT_POINTS_GLSL

#include "float_math.glsl"

const uint kBatchSize = 10240u;
const uint kQuantSteps = 1023u;
const uint kInvalidQuantized = 0xc0000000u;
#define kInsideMargin uintBitsToFloat(0x39800000u)  // 1.0f / 4096.0f

struct Batch {
  float min[3];
  float step[3];
  uint first;
  uint count;
};

struct ViewTransform {
  float viewProjection[16];  // column-major
  int width, height;
  float nearPlane, farPlane;
  int orthographic;
  float depthRow[4];
};

struct BatchProjection {
  float sx[4], sy[4], w[4];
  float width, height, nearPlane, farPlane;
  uint orthographic;
};

const uint kBatchOutside = 0u;
const uint kBatchPartial = 1u;
const uint kBatchInside = 2u;

float screenScale(BatchProjection p, float w) {
  return p.orthographic != 0u ? 1.0 : w;
}

float affine(float a[4], float x, float y, float z) {
  precise float r = fusedMultiplyAdd(a[0], x, fusedMultiplyAdd(a[1], y, fusedMultiplyAdd(a[2], z, a[3])));
  return r;
}

BatchProjection makeBatchProjection(ViewTransform view, Batch batch) {
  float clipRows[4][4];
  for (int row = 0; row < 4; ++row) {
    for (int axis = 0; axis < 3; ++axis) {
      precise float c = view.viewProjection[axis * 4 + row] * batch.step[axis];
      clipRows[row][axis] = c;
    }
    precise float constant = view.viewProjection[row] * batch.min[0] +
                             view.viewProjection[4 + row] * batch.min[1] +
                             view.viewProjection[8 + row] * batch.min[2] +
                             view.viewProjection[12 + row];
    clipRows[row][3] = constant;
  }
  BatchProjection p;
  precise float halfWidth = 0.5 * float(view.width);
  precise float halfHeight = 0.5 * float(view.height);
  for (int k = 0; k < 4; ++k) {
    precise float sx = halfWidth * (clipRows[0][k] + clipRows[3][k]);
    precise float sy = halfHeight * (clipRows[1][k] + clipRows[3][k]);
    p.sx[k] = sx;
    p.sy[k] = sy;
    p.w[k] = clipRows[3][k];
  }
  p.orthographic = 0u;
  if (view.orthographic != 0) {
    for (int axis = 0; axis < 3; ++axis) {
      precise float d = view.depthRow[axis] * batch.step[axis];
      p.w[axis] = d;
    }
    precise float d3 = view.depthRow[0] * batch.min[0] + view.depthRow[1] * batch.min[1] +
                       view.depthRow[2] * batch.min[2] + view.depthRow[3];
    p.w[3] = d3;
    p.orthographic = 1u;
  }
  p.width = float(view.width);
  p.height = float(view.height);
  p.nearPlane = view.nearPlane;
  p.farPlane = view.farPlane;
  return p;
}

// Corner `corner` (bit 0 x, bit 1 y, bit 2 z at the far end) of the batch box: its side bits
// (left, right, bottom, top, near, far) in .x, 1 in .y when it is inside by the margin.
uvec2 classifyCorner(BatchProjection p, int corner, float marginPx) {
  const float x = (corner & 1) != 0 ? float(kQuantSteps) : 0.0;
  const float y = (corner & 2) != 0 ? float(kQuantSteps) : 0.0;
  const float z = (corner & 4) != 0 ? float(kQuantSteps) : 0.0;
  const float sx = affine(p.sx, x, y, z), sy = affine(p.sy, x, y, z), w = affine(p.w, x, y, z);
  const float scale = screenScale(p, w);
  precise float low = -marginPx * scale;
  const float lo = kInsideMargin;
  precise float hi = 1.0 - kInsideMargin;
  precise float right = (p.width + marginPx) * scale;
  precise float top = (p.height + marginPx) * scale;
  uint outside = uint(sx < low) | uint(sx > right) << 1 | uint(sy < low) << 2 |
                 uint(sy > top) << 3 | uint(w < p.nearPlane) << 4 | uint(w > p.farPlane) << 5;
  precise float loX = lo * p.width * scale, hiX = hi * p.width * scale;
  precise float loY = lo * p.height * scale, hiY = hi * p.height * scale;
  precise float nearIn = p.nearPlane * (1.0 + kInsideMargin);
  precise float farIn = p.farPlane * hi;
  const bool inside = sx > loX && sx < hiX && sy > loY && sy < hiY && w > nearIn && w < farIn;
  return uvec2(outside, inside ? 1u : 0u);
}

// A batch's visibility from its eight corners' classes (classifyCorner), ANDed.
uint combineCorners(uint outsideAll, bool insideAll) {
  if (outsideAll != 0u) return kBatchOutside;
  return insideAll ? kBatchInside : kBatchPartial;
}

bool batchOutsideView(BatchProjection p, float marginPx) {
  uint outsideAll = 0x3fu;
  for (int corner = 0; corner < 8; ++corner) outsideAll &= classifyCorner(p, corner, marginPx).x;
  return outsideAll != 0u;
}

// A quantized point on the screen: pixel coordinates in .xy, view depth in .z. Returns false
// for points not drawn (tested against the image grown by marginPx when `withMargin`).
bool projectQuantizedToScreen(BatchProjection p, uint word, bool tested, bool withMargin,
                              float marginPx, out vec3 screen) {
  screen = vec3(0.0);
  if ((word & kInvalidQuantized) != 0u) return false;
  const float x = float(word & 1023u);
  const float y = float((word >> 10) & 1023u);
  const float z = float(word >> 20);
  const float w = affine(p.w, x, y, z);
  if (tested && !(w > p.nearPlane && w < p.farPlane)) return false;
  const float sx = affine(p.sx, x, y, z), sy = affine(p.sy, x, y, z);
  precise float low = withMargin ? -marginPx * screenScale(p, w) : 0.0;
  if (tested && !(sx >= low && sy >= low)) return false;
  const float invW = p.orthographic != 0u ? 1.0 : reciprocalInViewRange(w);
  precise float outX = sx * invW;
  precise float outY = sy * invW;
  screen = vec3(outX, outY, w);
  precise float width = withMargin ? p.width + marginPx : p.width;
  precise float height = withMargin ? p.height + marginPx : p.height;
  return !tested || (outX < width && outY < height);
}

#endif
