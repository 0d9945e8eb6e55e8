// The frame's clip region per batch and per point: the GLSL twin of
// src/raster/shared/clip_region.hpp (box, slab and polygon in the batch's step counts).
#ifndef PCV_CLIP_REGION_GLSL
#define PCV_CLIP_REGION_GLSL

#include "frame_params.glsl"

#define kPlaneMargin uintBitsToFloat(0x37800000u)  // 1.0f / 65536.0f
const uint kClipAll = 0u, kClipNone = 1u, kClipTested = 2u;

struct BatchClip {
  float low[3];
  float high[3];
  float plane[4];
  float planeMin, planeMax;
  uint hasPlane, keepOutside, testsRegion, testsPolygon;
  float polygon[3][4];
  float polygonMinimumW;
  uint polygonKeepOutside;
};

// value < 0 ? -value : value, as the shared header has it (abs() may differ on -0 and NaN).
float absoluteOf(float value) {
  return value < 0.0 ? -value : value;
}

void stepRange(float low, float high, float min, float step, out float qLow, out float qHigh) {
  if (step > 0.0) {
    qLow = divideExact(low - min, step);
    qHigh = divideExact(high - min, step);
    return;
  }
  const bool kept = min >= low && min <= high;
  qLow = kept ? 0.0 : 1.0;
  qHigh = kept ? float(kQuantSteps) : -1.0;
}

BatchClip makeBatchClip(Batch batch) {
  BatchClip c;
  for (int axis = 0; axis < 3; ++axis) {
    float qLow, qHigh;
    stepRange(pc.frame.clip.boxMin[axis], pc.frame.clip.boxMax[axis], batch.min[axis],
              batch.step[axis], qLow, qHigh);
    c.low[axis] = qLow;
    c.high[axis] = qHigh;
    precise float p = pc.frame.clip.plane[axis] * batch.step[axis];
    c.plane[axis] = p;
  }
  precise float p3 = pc.frame.clip.plane[0] * batch.min[0] + pc.frame.clip.plane[1] * batch.min[1] +
                     pc.frame.clip.plane[2] * batch.min[2];
  c.plane[3] = p3;
  c.planeMin = pc.frame.clip.planeMin;
  c.planeMax = pc.frame.clip.planeMax;
  c.hasPlane = pc.frame.clip.hasPlane;
  c.keepOutside = pc.frame.clip.keepOutside;
  c.testsRegion = pc.frame.clip.hasRegion;
  c.testsPolygon = pc.frame.clip.polygon.edgeCount != 0u ? 1u : 0u;
  for (int row = 0; row < 3; ++row) {
    for (int axis = 0; axis < 3; ++axis) {
      precise float r = pc.frame.clip.polygon.rows[row][axis] * batch.step[axis];
      c.polygon[row][axis] = r;
    }
    precise float r3 = pc.frame.clip.polygon.rows[row][0] * batch.min[0] +
                       pc.frame.clip.polygon.rows[row][1] * batch.min[1] +
                       pc.frame.clip.polygon.rows[row][2] * batch.min[2] +
                       pc.frame.clip.polygon.rows[row][3];
    c.polygon[row][3] = r3;
  }
  c.polygonMinimumW = pc.frame.clip.polygon.minimumW;
  c.polygonKeepOutside = pc.frame.clip.polygon.keepOutside;
  return c;
}

bool insideClipPolygon(float x, float y) {
  if (!(x >= pc.frame.clip.polygon.low[0] && x <= pc.frame.clip.polygon.high[0] &&
        y >= pc.frame.clip.polygon.low[1] && y <= pc.frame.clip.polygon.high[1])) {
    return false;
  }
  bool inside = false;
  const uint edgeCount = pc.frame.clip.polygon.edgeCount;
  for (uint i = 0u; i < edgeCount; ++i) {
    const PolygonEdge e = pc.frame.clip.polygon.edges[i];
    const bool spans = (e.ay > y) != (e.by > y);
    precise float crossing = e.ax + (y - e.ay) * e.slope;
    if (spans && x < crossing) inside = !inside;
  }
  return inside;
}

bool polygonKeepsQuantized(BatchClip c, float x, float y, float z) {
  const float w = affine(c.polygon[2], x, y, z);
  bool inside = w > c.polygonMinimumW;
  if (inside) {
    inside = insideClipPolygon(divideExact(affine(c.polygon[0], x, y, z), w),
                               divideExact(affine(c.polygon[1], x, y, z), w));
  }
  return inside != (c.polygonKeepOutside != 0u);
}

bool clipKeepsQuantized(BatchClip c, uint word) {
  const float x = float(word & 1023u);
  const float y = float((word >> 10) & 1023u);
  const float z = float((word >> 20) & 1023u);
  if (c.testsRegion != 0u) {
    bool inside = x >= c.low[0] && x <= c.high[0] && y >= c.low[1] && y <= c.high[1] &&
                  z >= c.low[2] && z <= c.high[2];
    if (c.hasPlane != 0u) {
      const float s = affine(c.plane, x, y, z);
      inside = inside && s >= c.planeMin && s <= c.planeMax;
    }
    if (inside == (c.keepOutside != 0u)) return false;
  }
  return c.testsPolygon == 0u || polygonKeepsQuantized(c, x, y, z);
}

uint classifyBatchRegion(BatchClip c) {
  const float top = float(kQuantSteps);
  bool allIn = true, noneIn = false;
  for (int axis = 0; axis < 3; ++axis) {
    allIn = allIn && c.low[axis] <= 0.0 && c.high[axis] >= top;
    noneIn = noneIn || !(c.high[axis] >= 0.0 && c.low[axis] <= top) ||
             !(c.low[axis] <= c.high[axis]);
  }
  if (c.hasPlane != 0u && !noneIn) {
    precise float low = c.plane[3], high = c.plane[3], magnitude = absoluteOf(c.plane[3]);
    for (int axis = 0; axis < 3; ++axis) {
      precise float reach = c.plane[axis] * top;
      low += reach < 0.0 ? reach : 0.0;
      high += reach > 0.0 ? reach : 0.0;
      magnitude += absoluteOf(reach);
    }
    precise float margin = magnitude * kPlaneMargin;
    precise float minIn = c.planeMin + margin, maxIn = c.planeMax - margin;
    precise float minOut = c.planeMin - margin, maxOut = c.planeMax + margin;
    allIn = allIn && low >= minIn && high <= maxIn;
    noneIn = high < minOut || low > maxOut;
  }
  if (c.keepOutside != 0u) {
    if (noneIn) return kClipAll;
    return allIn ? kClipNone : kClipTested;
  }
  if (noneIn) return kClipNone;
  return allIn ? kClipAll : kClipTested;
}

bool segmentMeetsRect(float ax, float ay, float bx, float by, float low[2], float high[2]) {
  if ((ax > bx ? ax : bx) < low[0] || (ax < bx ? ax : bx) > high[0] ||
      (ay > by ? ay : by) < low[1] || (ay < by ? ay : by) > high[1]) {
    return false;
  }
  bool positive = false, negative = false;
  for (int corner = 0; corner < 4; ++corner) {
    const float cx = (corner & 1) != 0 ? high[0] : low[0];
    const float cy = (corner & 2) != 0 ? high[1] : low[1];
    precise float side = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
    positive = positive || side >= 0.0;
    negative = negative || side <= 0.0;
  }
  return positive && negative;
}

uint classifyBatchPolygon(BatchClip c) {
  const float top = float(kQuantSteps);
  float low[2] = float[2](kPositiveInfinity, kPositiveInfinity);
  float high[2] = float[2](-kPositiveInfinity, -kPositiveInfinity);
  bool allFront = true, noneFront = true;
  for (int corner = 0; corner < 8; ++corner) {
    const float x = (corner & 1) != 0 ? top : 0.0, y = (corner & 2) != 0 ? top : 0.0,
                z = (corner & 4) != 0 ? top : 0.0;
    const float w = affine(c.polygon[2], x, y, z);
    precise float wMargin = absoluteOf(w) * kPlaneMargin;
    precise float wFront = c.polygonMinimumW + wMargin, wBehind = c.polygonMinimumW - wMargin;
    allFront = allFront && w > wFront;
    noneFront = noneFront && !(w > wBehind);
    const float px = divideExact(affine(c.polygon[0], x, y, z), w);
    const float py = divideExact(affine(c.polygon[1], x, y, z), w);
    low[0] = px < low[0] ? px : low[0];
    high[0] = px > high[0] ? px : high[0];
    low[1] = py < low[1] ? py : low[1];
    high[1] = py > high[1] ? py : high[1];
  }
  bool noneIn = noneFront, allIn = false;
  if (allFront) {
    float magnitude = 0.0;
    for (int axis = 0; axis < 2; ++axis) {
      const float reach = absoluteOf(low[axis]) > absoluteOf(high[axis]) ? absoluteOf(low[axis]) : absoluteOf(high[axis]);
      magnitude = magnitude > reach ? magnitude : reach;
      precise float extent = high[axis] - low[axis];
      magnitude = magnitude > extent ? magnitude : extent;
    }
    precise float margin = magnitude * kPlaneMargin;
    for (int axis = 0; axis < 2; ++axis) {
      precise float grownLow = low[axis] - margin, grownHigh = high[axis] + margin;
      low[axis] = grownLow;
      high[axis] = grownHigh;
    }
    const bool finite = isFiniteFloat(low[0]) && isFiniteFloat(low[1]) &&
                        isFiniteFloat(high[0]) && isFiniteFloat(high[1]);
    if (finite && (high[0] < pc.frame.clip.polygon.low[0] || low[0] > pc.frame.clip.polygon.high[0] ||
                   high[1] < pc.frame.clip.polygon.low[1] || low[1] > pc.frame.clip.polygon.high[1])) {
      noneIn = true;
    } else if (finite) {
      bool crossed = false;
      const uint edgeCount = pc.frame.clip.polygon.edgeCount;
      for (uint i = 0u; i < edgeCount && !crossed; ++i) {
        const PolygonEdge a = pc.frame.clip.polygon.edges[i];
        const PolygonEdge b = pc.frame.clip.polygon.edges[i + 1u < edgeCount ? i + 1u : 0u];
        crossed = segmentMeetsRect(a.ax, a.ay, b.ax, b.ay, low, high);
      }
      if (!crossed) {
        precise float middleX = 0.5 * (low[0] + high[0]), middleY = 0.5 * (low[1] + high[1]);
        const bool middleInside = insideClipPolygon(middleX, middleY);
        allIn = middleInside;
        noneIn = !middleInside;
      }
    }
  }
  if (c.polygonKeepOutside != 0u) {
    if (noneIn) return kClipAll;
    return allIn ? kClipNone : kClipTested;
  }
  if (noneIn) return kClipNone;
  return allIn ? kClipAll : kClipTested;
}

// The batch's class under the frame's clip region; with kClipTested, clip says which tests its
// points need.
uint classifyBatchClip(Batch batch, out BatchClip clip) {
  if (pc.frame.clip.enabled == 0u) return kClipAll;
  clip = makeBatchClip(batch);
  const uint region = pc.frame.clip.hasRegion != 0u ? classifyBatchRegion(clip) : kClipAll;
  if (region == kClipNone) return kClipNone;
  const uint polygon =
      pc.frame.clip.polygon.edgeCount != 0u ? classifyBatchPolygon(clip) : kClipAll;
  if (polygon == kClipNone) return kClipNone;
  clip.testsRegion = region == kClipTested ? 1u : 0u;
  clip.testsPolygon = polygon == kClipTested ? 1u : 0u;
  return region == kClipAll && polygon == kClipAll ? kClipAll : kClipTested;
}

#endif
