/// @brief The clip region per frame, per batch and per point, written once for both compilers so
/// the CPU backend clips exactly as the CUDA one does. A point's clip test is made in its batch's
/// quantized step counts: the box becomes three ranges of step counts and the slab an affine
/// function of them, so a point costs a few compares (and one fused affine with a slab), and a
/// batch is classified exactly from its 0..kQuantSteps cube. A polygon drawn in a view (the
/// viewer's Polygon tool, `--clip-polygon`) is tested in that view's plane: its clip x, y, w are
/// affine in the step counts too, and the point's x / w, y / w go through the even-odd rule
/// against the polygon's edges; a batch whose corners' rectangle no edge meets is kept or
/// skipped whole.
#pragma once

#include <cstdint>

#include "pcv/core/float_math.hpp"
#include "pcv/core/host_device.hpp"
#include "shared/compact_points.hpp"

namespace pcv {

/// Edges a clip polygon has at most (PolygonSelection::kMaxVertices).
constexpr uint32_t kMaxClipPolygonEdges = 128;

/// The edge from (ax, ay) to the next edge's (ax, ay): it crosses the row at height y where
/// (ay > y) != (by > y), at x = ax + (y - ay) * slope.
struct PolygonEdge {
  float ax, ay;  ///< the edge's first vertex, in the polygon's plane
  float by;      ///< the second vertex's y
  float slope;   ///< (bx - ax) / (by - ay); 0 for a horizontal edge (it crosses no row)
};

/// A frame's clip polygon: the view it was drawn in and its edges in that view's plane.
struct ClipPolygon {
  uint32_t edgeCount;    ///< 0: no polygon; else 3 .. kMaxClipPolygonEdges
  uint32_t keepOutside;  ///< 1: draw the points outside the polygon, else those inside
  float minimumW;        ///< a point is in front when its clip w exceeds this (-infinity: all)
  uint32_t unused;       ///< keeps the floats 16-byte aligned
  /// Clip x, y, w of the polygon's view as affine functions of the points' coordinates.
  float rows[3][4];
  float low[2], high[2];  ///< the vertices' rectangle in the plane
  PolygonEdge edges[kMaxClipPolygonEdges];
};

/// A frame's clip region in the points' coordinates (offsets from the view's origin); passed by
/// value to the kernels. Built on the host by makeClipFrame (src/raster/clip_frame.hpp).
struct ClipFrame {
  uint32_t active;       ///< 0: nothing is clipped, the other fields are unused
  uint32_t keepOutside;  ///< 1: draw the points outside the box and slab, else those inside
  uint32_t hasPlane;     ///< 1: the region is also limited by the slab below
  uint32_t hasRegion;    ///< 1: a box or a slab clips (0: the polygon alone)
  float boxMin[3];       ///< -infinity where the region is unbounded (slab only)
  float boxMax[3];       ///< +infinity where unbounded
  float plane[3];        ///< the slab's unit normal (slabs along an axis are folded into the box)
  float planeMin;        ///< plane . p of the kept points lies in [planeMin, planeMax]
  float planeMax;
  ClipPolygon polygon;   ///< polygon.edgeCount == 0: none
};

/// The clip region of one batch in its step counts q (0..kQuantSteps per axis, the quantized
/// position word): a point is in the region when low <= q <= high on every axis and, with a
/// plane, planeMin <= affine(plane, q) <= planeMax; and in the polygon when its view's rows
/// put it there. 128 bytes.
struct BatchClip {
  float low[3];
  float high[3];
  float plane[4];  ///< plane . position as an affine function of the step counts
  float planeMin, planeMax;
  uint32_t hasPlane;
  uint32_t keepOutside;
  uint32_t testsRegion;   ///< 1: each point is tested against the box and slab
  uint32_t testsPolygon;  ///< 1: each point is tested against the polygon
  float polygon[3][4];    ///< the polygon view's clip x, y, w, affine in the step counts
  float polygonMinimumW;  ///< ClipPolygon::minimumW
  uint32_t polygonKeepOutside;
  uint32_t unused[2];  ///< zero: a whole number of 16-byte loads, no uninitialised bytes
};
static_assert(sizeof(BatchClip) == 128);

/// What clipping leaves of a batch.
enum class BatchClipClass : uint32_t {
  kAll,     ///< every point is kept: draw the batch without per-point clip tests
  kNone,    ///< no point is kept: skip the batch
  kTested,  ///< the region's faces cross the batch: test each point
};

/// The range of step counts of one axis whose positions min + q * step lie in [low, high]. A flat
/// axis (step 0: every point at min) keeps 0 .. kQuantSteps or nothing.
PCV_HOST_DEVICE PCV_FORCE_INLINE void stepRange(float low, float high, float min, float step,
                                                float& qLow, float& qHigh) {
  if (step > 0.0f) {
    qLow = (low - min) / step;
    qHigh = (high - min) / step;
    return;
  }
  const bool kept = min >= low && min <= high;
  qLow = kept ? 0.0f : 1.0f;
  qHigh = kept ? float(kQuantSteps) : -1.0f;
}

PCV_HOST_DEVICE inline BatchClip makeBatchClip(const ClipFrame& frame, const Batch& batch) {
  BatchClip c{};
  for (int axis = 0; axis < 3; ++axis) {
    stepRange(frame.boxMin[axis], frame.boxMax[axis], batch.min[axis], batch.step[axis],
              c.low[axis], c.high[axis]);
    c.plane[axis] = frame.plane[axis] * batch.step[axis];
  }
  c.plane[3] =
      frame.plane[0] * batch.min[0] + frame.plane[1] * batch.min[1] + frame.plane[2] * batch.min[2];
  c.planeMin = frame.planeMin;
  c.planeMax = frame.planeMax;
  c.hasPlane = frame.hasPlane;
  c.keepOutside = frame.keepOutside;
  c.testsRegion = frame.hasRegion;
  const ClipPolygon& polygon = frame.polygon;
  c.testsPolygon = polygon.edgeCount != 0 ? 1u : 0u;
  for (int row = 0; row < 3; ++row) {
    const float* r = polygon.rows[row];
    for (int axis = 0; axis < 3; ++axis) c.polygon[row][axis] = r[axis] * batch.step[axis];
    c.polygon[row][3] = r[0] * batch.min[0] + r[1] * batch.min[1] + r[2] * batch.min[2] + r[3];
  }
  c.polygonMinimumW = polygon.minimumW;
  c.polygonKeepOutside = polygon.keepOutside;
  return c;
}

/// Whether (x, y) in the polygon's plane is inside it: the even-odd rule, as the double test of
/// PolygonSelection has it (which also counts the edges themselves as inside).
PCV_HOST_DEVICE PCV_FORCE_INLINE bool insideClipPolygon(const ClipPolygon& polygon, float x,
                                                        float y) {
  if (!(x >= polygon.low[0] && x <= polygon.high[0] && y >= polygon.low[1] &&
        y <= polygon.high[1])) {
    return false;
  }
  bool inside = false;
  for (uint32_t i = 0; i < polygon.edgeCount; ++i) {
    const PolygonEdge e = polygon.edges[i];
    const bool spans = (e.ay > y) != (e.by > y);
    if (spans && x < e.ax + (y - e.ay) * e.slope) inside = !inside;
  }
  return inside;
}

/// Whether the polygon keeps the point at step counts (x, y, z) of the batch.
PCV_HOST_DEVICE PCV_FORCE_INLINE bool polygonKeepsQuantized(const BatchClip& c,
                                                            const ClipPolygon& polygon, float x,
                                                            float y, float z) {
  const float w = affine(c.polygon[2], x, y, z);
  bool inside = w > c.polygonMinimumW;  // "not greater" rejects NaN
  if (inside) {
    inside = insideClipPolygon(polygon, affine(c.polygon[0], x, y, z) / w,
                               affine(c.polygon[1], x, y, z) / w);
  }
  return inside != (c.polygonKeepOutside != 0);
}

/// Whether a point of the batch (its position word) is drawn: the tests the batch's class left
/// to make (testsRegion, testsPolygon), with the frame's polygon.
PCV_HOST_DEVICE PCV_FORCE_INLINE bool clipKeepsQuantized(const BatchClip& c,
                                                         const ClipPolygon& polygon,
                                                         uint32_t word) {
  const float x = smallUintToFloat(word & 1023u);
  const float y = smallUintToFloat((word >> 10) & 1023u);
  const float z = smallUintToFloat((word >> 20) & 1023u);
  if (c.testsRegion) {
    bool inside = x >= c.low[0] && x <= c.high[0] && y >= c.low[1] && y <= c.high[1] &&
                  z >= c.low[2] && z <= c.high[2];
    if (c.hasPlane) {
      const float s = affine(c.plane, x, y, z);
      inside = inside && s >= c.planeMin && s <= c.planeMax;
    }
    if (inside == (c.keepOutside != 0)) return false;
  }
  return !c.testsPolygon || polygonKeepsQuantized(c, polygon, x, y, z);
}

/// Relative margin of the slab classification: far above the few ulps by which one point's
/// affine(plane, q) can differ from the exact value, so a batch classified kAll or kNone holds
/// no point whose own test would say otherwise.
constexpr float kPlaneMargin = 1.0f / 65536.0f;

PCV_HOST_DEVICE PCV_FORCE_INLINE float absoluteOf(float value) {
  return value < 0.0f ? -value : value;
}

/// The batch's class under the box and slab from its cube of step counts: exact for the box (the
/// step counts are integers in 0..kQuantSteps), conservative by kPlaneMargin for the slab.
PCV_HOST_DEVICE inline BatchClipClass classifyBatchRegion(const BatchClip& c) {
  const float top = float(kQuantSteps);
  bool allIn = true, noneIn = false;
  for (int axis = 0; axis < 3; ++axis) {
    allIn = allIn && c.low[axis] <= 0.0f && c.high[axis] >= top;
    noneIn =
        noneIn || !(c.high[axis] >= 0.0f && c.low[axis] <= top) || !(c.low[axis] <= c.high[axis]);
  }
  if (c.hasPlane && !noneIn) {
    float low = c.plane[3], high = c.plane[3], magnitude = absoluteOf(c.plane[3]);
    for (int axis = 0; axis < 3; ++axis) {
      const float reach = c.plane[axis] * top;
      low += reach < 0.0f ? reach : 0.0f;
      high += reach > 0.0f ? reach : 0.0f;
      magnitude += absoluteOf(reach);
    }
    const float margin = magnitude * kPlaneMargin;
    allIn = allIn && low >= c.planeMin + margin && high <= c.planeMax - margin;
    noneIn = high < c.planeMin - margin || low > c.planeMax + margin;
  }
  if (c.keepOutside) {
    if (noneIn) return BatchClipClass::kAll;
    return allIn ? BatchClipClass::kNone : BatchClipClass::kTested;
  }
  if (noneIn) return BatchClipClass::kNone;
  return allIn ? BatchClipClass::kAll : BatchClipClass::kTested;
}

/// Whether the segment from a to b meets the rectangle [low, high] (separating axes: the
/// rectangle's two and the segment's normal).
PCV_HOST_DEVICE inline bool segmentMeetsRect(float ax, float ay, float bx, float by,
                                             const float low[2], const float high[2]) {
  if ((ax > bx ? ax : bx) < low[0] || (ax < bx ? ax : bx) > high[0] ||
      (ay > by ? ay : by) < low[1] || (ay < by ? ay : by) > high[1]) {
    return false;
  }
  bool positive = false, negative = false;
  for (int corner = 0; corner < 4; ++corner) {
    const float cx = (corner & 1) ? high[0] : low[0], cy = (corner & 2) ? high[1] : low[1];
    const float side = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
    positive = positive || side >= 0.0f;
    negative = negative || side <= 0.0f;
  }
  return positive && negative;
}

/// The batch's class under the polygon, from its box's eight corners in the polygon's view:
/// batches wholly in front whose corners' rectangle (grown by kPlaneMargin of its size and
/// place) no edge meets lie wholly inside or wholly outside; conservative, as the slab's.
PCV_HOST_DEVICE inline BatchClipClass classifyBatchPolygon(const BatchClip& c,
                                                           const ClipPolygon& polygon) {
  const float top = float(kQuantSteps);
  float low[2] = {1.0f / 0.0f, 1.0f / 0.0f}, high[2] = {-1.0f / 0.0f, -1.0f / 0.0f};
  bool allFront = true, noneFront = true;
  for (int corner = 0; corner < 8; ++corner) {
    const float x = (corner & 1) ? top : 0.0f, y = (corner & 2) ? top : 0.0f,
                z = (corner & 4) ? top : 0.0f;
    const float w = affine(c.polygon[2], x, y, z);
    const float wMargin = absoluteOf(w) * kPlaneMargin;
    allFront = allFront && w > c.polygonMinimumW + wMargin;
    noneFront = noneFront && !(w > c.polygonMinimumW - wMargin);
    const float px = affine(c.polygon[0], x, y, z) / w, py = affine(c.polygon[1], x, y, z) / w;
    low[0] = px < low[0] ? px : low[0];
    high[0] = px > high[0] ? px : high[0];
    low[1] = py < low[1] ? py : low[1];
    high[1] = py > high[1] ? py : high[1];
  }
  bool noneIn = noneFront, allIn = false;
  if (allFront) {
    float magnitude = 0.0f;
    for (int axis = 0; axis < 2; ++axis) {
      const float reach = absoluteOf(low[axis]) > absoluteOf(high[axis]) ? absoluteOf(low[axis])
                                                                          : absoluteOf(high[axis]);
      magnitude = magnitude > reach ? magnitude : reach;
      magnitude = magnitude > high[axis] - low[axis] ? magnitude : high[axis] - low[axis];
    }
    const float margin = magnitude * kPlaneMargin;
    for (int axis = 0; axis < 2; ++axis) {
      low[axis] -= margin;
      high[axis] += margin;
    }
    const bool finite = isFiniteFloat(low[0]) && isFiniteFloat(low[1]) &&
                        isFiniteFloat(high[0]) && isFiniteFloat(high[1]);
    if (finite && (high[0] < polygon.low[0] || low[0] > polygon.high[0] ||
                   high[1] < polygon.low[1] || low[1] > polygon.high[1])) {
      noneIn = true;
    } else if (finite) {
      bool crossed = false;
      for (uint32_t i = 0; i < polygon.edgeCount && !crossed; ++i) {
        const PolygonEdge& a = polygon.edges[i];
        const PolygonEdge& b = polygon.edges[i + 1 < polygon.edgeCount ? i + 1 : 0];
        crossed = segmentMeetsRect(a.ax, a.ay, b.ax, b.ay, low, high);
      }
      if (!crossed) {
        // No edge comes near: every point is where the rectangle's middle is.
        const bool middleInside =
            insideClipPolygon(polygon, 0.5f * (low[0] + high[0]), 0.5f * (low[1] + high[1]));
        allIn = middleInside;
        noneIn = !middleInside;
      }
    }
  }
  if (c.polygonKeepOutside) {
    if (noneIn) return BatchClipClass::kAll;
    return allIn ? BatchClipClass::kNone : BatchClipClass::kTested;
  }
  if (noneIn) return BatchClipClass::kNone;
  return allIn ? BatchClipClass::kAll : BatchClipClass::kTested;
}

/// The class of a batch under a frame's clip region (box and slab, then polygon); kAll when the
/// frame clips nothing. With kTested, clip says which tests its points need.
PCV_HOST_DEVICE inline BatchClipClass classifyBatchClip(const ClipFrame& frame, const Batch& batch,
                                                        BatchClip& clip) {
  if (!frame.active) return BatchClipClass::kAll;
  clip = makeBatchClip(frame, batch);
  const BatchClipClass region =
      frame.hasRegion ? classifyBatchRegion(clip) : BatchClipClass::kAll;
  if (region == BatchClipClass::kNone) return BatchClipClass::kNone;
  const BatchClipClass polygon = frame.polygon.edgeCount != 0
                                     ? classifyBatchPolygon(clip, frame.polygon)
                                     : BatchClipClass::kAll;
  if (polygon == BatchClipClass::kNone) return BatchClipClass::kNone;
  clip.testsRegion = region == BatchClipClass::kTested ? 1u : 0u;
  clip.testsPolygon = polygon == BatchClipClass::kTested ? 1u : 0u;
  return region == BatchClipClass::kAll && polygon == BatchClipClass::kAll
             ? BatchClipClass::kAll
             : BatchClipClass::kTested;
}

}  // namespace pcv
