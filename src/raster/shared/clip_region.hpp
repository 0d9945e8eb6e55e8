/// @brief The clip region per frame, per batch and per point, written once for both compilers so
/// the CPU backend clips exactly as the CUDA one does. A point's clip test is made in its batch's
/// quantized step counts: the box becomes three ranges of step counts and the slab an affine
/// function of them, so a point costs a few compares (and one fused affine with a slab), and a
/// batch is classified exactly from its 0..kQuantSteps cube.
#pragma once

#include <cstdint>

#include "pcv/core/float_math.hpp"
#include "pcv/core/host_device.hpp"
#include "shared/compact_points.hpp"

namespace pcv {

/// A frame's clip region in the points' coordinates (offsets from the view's origin); passed by
/// value to the kernels. Built on the host by makeClipFrame (src/raster/clip_frame.hpp).
struct ClipFrame {
  uint32_t active;       ///< 0: nothing is clipped, the other fields are unused
  uint32_t keepOutside;  ///< 1: draw the points outside the region, else those inside
  uint32_t hasPlane;     ///< 1: the region is also limited by the slab below
  uint32_t unused;       ///< keeps the floats 16-byte aligned
  float boxMin[3];       ///< -infinity where the region is unbounded (slab only)
  float boxMax[3];       ///< +infinity where unbounded
  float plane[3];        ///< the slab's unit normal (slabs along an axis are folded into the box)
  float planeMin;        ///< plane . p of the kept points lies in [planeMin, planeMax]
  float planeMax;
};

/// The clip region of one batch in its step counts q (0..kQuantSteps per axis, the quantized
/// position word): a point is in the region when low <= q <= high on every axis and, with a
/// plane, planeMin <= affine(plane, q) <= planeMax. 64 bytes.
struct BatchClip {
  float low[3];
  float high[3];
  float plane[4];  ///< plane . position as an affine function of the step counts
  float planeMin, planeMax;
  uint32_t hasPlane;
  uint32_t keepOutside;
  uint32_t unused[2];  ///< zero: a whole number of 16-byte loads, no uninitialised bytes
};
static_assert(sizeof(BatchClip) == 64);

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
  return c;
}

/// Whether a point of the batch (its position word) is drawn.
PCV_HOST_DEVICE PCV_FORCE_INLINE bool clipKeepsQuantized(const BatchClip& c, uint32_t word) {
  const float x = smallUintToFloat(word & 1023u);
  const float y = smallUintToFloat((word >> 10) & 1023u);
  const float z = smallUintToFloat((word >> 20) & 1023u);
  bool inside = x >= c.low[0] && x <= c.high[0] && y >= c.low[1] && y <= c.high[1] &&
                z >= c.low[2] && z <= c.high[2];
  if (c.hasPlane) {
    const float s = affine(c.plane, x, y, z);
    inside = inside && s >= c.planeMin && s <= c.planeMax;
  }
  return inside != (c.keepOutside != 0);
}

/// Relative margin of the slab classification: far above the few ulps by which one point's
/// affine(plane, q) can differ from the exact value, so a batch classified kAll or kNone holds
/// no point whose own test would say otherwise.
constexpr float kPlaneMargin = 1.0f / 65536.0f;

PCV_HOST_DEVICE PCV_FORCE_INLINE float absoluteOf(float value) {
  return value < 0.0f ? -value : value;
}

/// The batch's class from its cube of step counts: exact for the box (the step counts are
/// integers in 0..kQuantSteps), conservative by kPlaneMargin for the slab.
PCV_HOST_DEVICE inline BatchClipClass classifyBatchClip(const BatchClip& c) {
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

/// The class of a batch under a frame's clip region; kAll when the frame clips nothing.
PCV_HOST_DEVICE inline BatchClipClass classifyBatchClip(const ClipFrame& frame, const Batch& batch,
                                                        BatchClip& clip) {
  if (!frame.active) return BatchClipClass::kAll;
  clip = makeBatchClip(frame, batch);
  return classifyBatchClip(clip);
}

}  // namespace pcv
