/// @brief The compact point layout of the fast methods: points in Morton order, cut into batches
/// of kBatchSize; per point one 32-bit word of position quantized to 10 bits per axis inside its
/// batch's box, and the colour in a separate array read only for visible pixels. 8 bytes per
/// point in memory, 4 bytes per point read by the raster pass.
///
/// Written once for both compilers: the CPU backend draws the same image from the same layout,
/// bit for bit, and is the oracle of the CUDA one.
#pragma once

#include <cstdint>

#include "pcv/core/float_math.hpp"
#include "pcv/core/host_device.hpp"
#include "pcv/raster/projection.hpp"

namespace pcv {

/// Points per batch: one CUDA block culls and draws one batch (HPG 2022 uses ~10 k).
constexpr uint32_t kBatchSize = 10240;
/// Quantization steps per axis inside a batch box (10 bits).
constexpr uint32_t kQuantSteps = 1023;

/// One batch: its box and where its points are. 32 bytes.
struct Batch {
  float min[3];    ///< box minimum (offsets from the cloud's origin)
  float step[3];   ///< box extent / kQuantSteps: the size of one quantization step per axis
  uint32_t first;  ///< index of the batch's first point
  uint32_t count;  ///< points in the batch, 1 .. kBatchSize
};
static_assert(sizeof(Batch) == 32);

/// Marks a point that must never be drawn (non-finite coordinates): the two unused top bits.
constexpr uint32_t kInvalidQuantized = 0xc0000000u;

// word = | unused (2) | z (10) | y (10) | x (10) |, each the rounded step count from Batch::min.
PCV_HOST_DEVICE PCV_FORCE_INLINE uint32_t quantizeAxis(float value, float min, float step) {
  if (!(step > 0.0f)) return 0;  // flat axis (or NaN extent): every point sits on min
  const float steps = (value - min) / step + 0.5f;
  return !(steps >= 0.0f) ? 0u : (steps >= float(kQuantSteps) ? kQuantSteps : uint32_t(steps));
}

PCV_HOST_DEVICE PCV_FORCE_INLINE uint32_t packQuantized(const Batch& batch, float x, float y,
                                                        float z) {
  if (!(isFiniteFloat(x) && isFiniteFloat(y) && isFiniteFloat(z))) return kInvalidQuantized;
  return quantizeAxis(x, batch.min[0], batch.step[0]) |
         (quantizeAxis(y, batch.min[1], batch.step[1]) << 10) |
         (quantizeAxis(z, batch.min[2], batch.step[2]) << 20);
}

/// A batch over points [first, first + count) whose finite coordinates span [min, max]
/// (min > max on an axis when none is finite).
PCV_HOST_DEVICE inline Batch makeBatch(const float* min, const float* max, uint32_t first,
                                       uint32_t count) {
  Batch batch{};
  for (int axis = 0; axis < 3; ++axis) {
    const bool spans = max[axis] >= min[axis];
    batch.min[axis] = spans ? min[axis] : 0.0f;
    batch.step[axis] = spans ? (max[axis] - min[axis]) / float(kQuantSteps) : 0.0f;
  }
  batch.first = first;
  batch.count = count;
  return batch;
}

/// A batch's projection straight to pixels: screen x and y scaled by w, and w, as affine
/// functions of the point's integer step counts. Built once per batch per frame. In an
/// orthographic view clip w is 1: sx and sy are then the pixel coordinates themselves, and w
/// holds the view distance (the depth row), which no test multiplies or divides by.
struct BatchProjection {
  float sx[4];                ///< 0.5 * width * (clip x + clip w): pixel x times clip w
  float sy[4];                ///< 0.5 * height * (clip y + clip w): pixel y times clip w
  float w[4];                 ///< view distance: clip w (perspective) or the depth row
  float width, height;        ///< image size in pixels, as floats
  float nearPlane, farPlane;  ///< the w range that is drawn
  uint32_t orthographic;      ///< 1: sx, sy are not scaled by w
  uint32_t unused[3];         ///< zero: whole 16-byte loads, no uninitialised bytes
};

/// What sx and sy are scaled by at view distance w: w, or 1 in an orthographic view.
PCV_HOST_DEVICE PCV_FORCE_INLINE float screenScale(const BatchProjection& p, float w) {
  return p.orthographic ? 1.0f : w;
}

/// a[0] * x + a[1] * y + a[2] * z + a[3], fused the same way on host and device.
PCV_HOST_DEVICE PCV_FORCE_INLINE float affine(const float* a, float x, float y, float z) {
  return fusedMultiplyAdd(a[0], x, fusedMultiplyAdd(a[1], y, fusedMultiplyAdd(a[2], z, a[3])));
}

/// viewport * viewProjection * translate(batch.min) * scale(batch.step), as a BatchProjection.
PCV_HOST_DEVICE inline BatchProjection makeBatchProjection(const ViewTransform& view,
                                                           const Batch& batch) {
  const float* m = view.viewProjection;  // column-major: m[column * 4 + row]
  float clip[4][4];                      // clip[row] = {x, y, z coefficients, constant}
  for (int row = 0; row < 4; ++row) {
    for (int axis = 0; axis < 3; ++axis) clip[row][axis] = m[axis * 4 + row] * batch.step[axis];
    clip[row][3] =
        m[row] * batch.min[0] + m[4 + row] * batch.min[1] + m[8 + row] * batch.min[2] + m[12 + row];
  }
  BatchProjection p{};
  const float halfWidth = 0.5f * float(view.width), halfHeight = 0.5f * float(view.height);
  for (int k = 0; k < 4; ++k) {
    p.sx[k] = halfWidth * (clip[0][k] + clip[3][k]);
    p.sy[k] = halfHeight * (clip[1][k] + clip[3][k]);
    p.w[k] = clip[3][k];
  }
  if (view.orthographic) {
    // Clip w is exactly 1 (its row is 0, 0, 0, 1): w carries the view distance instead.
    const float* d = view.depthRow;
    for (int axis = 0; axis < 3; ++axis) p.w[axis] = d[axis] * batch.step[axis];
    p.w[3] = d[0] * batch.min[0] + d[1] * batch.min[1] + d[2] * batch.min[2] + d[3];
    p.orthographic = 1;
  }
  p.width = float(view.width);
  p.height = float(view.height);
  p.nearPlane = view.nearPlane;
  p.farPlane = view.farPlane;
  return p;
}

/// Where a batch's box lies relative to the view.
enum class BatchVisibility : uint32_t {
  kOutside,  ///< entirely beyond one side: nothing to draw
  kPartial,  ///< crosses a side: every point is tested
  kInside,   ///< inside with a margin: every point passes the tests, which can be skipped
};

/// Relative margin by which a box must be inside for kInside: far above the rounding error of
/// a point's sx, sy, w (a few float ulps), so no point of the box can fail a test.
constexpr float kInsideMargin = 1.0f / 4096.0f;

/// Where one corner (0..7: bit 0 x, bit 1 y, bit 2 z at the box's far end) of the batch box
/// lies: a bit per view side it is beyond (left, right, bottom, top, near, far), and whether it is
/// inside by the margin. With marginPx > 0 the image counts as grown by that many pixels on each
/// side (for footprints wider than a pixel); marginPx == 0 gives exactly the plain tests.
struct CornerClass {
  uint32_t outside;
  bool inside;
};

/// Corner `corner` of the batch box projected: pixel x and y times w, and w.
struct ProjectedCorner {
  float sx, sy, w;
};

PCV_HOST_DEVICE PCV_FORCE_INLINE ProjectedCorner projectCorner(const BatchProjection& p,
                                                               int corner) {
  const float x = corner & 1 ? float(kQuantSteps) : 0.0f;
  const float y = corner & 2 ? float(kQuantSteps) : 0.0f;
  const float z = corner & 4 ? float(kQuantSteps) : 0.0f;
  return {affine(p.sx, x, y, z), affine(p.sy, x, y, z), affine(p.w, x, y, z)};
}

PCV_HOST_DEVICE PCV_FORCE_INLINE CornerClass classifyCorner(const BatchProjection& p,
                                                            const ProjectedCorner& corner,
                                                            float marginPx = 0.0f) {
  const float sx = corner.sx, sy = corner.sy, w = corner.w;
  const float scale = screenScale(p, w);
  const float low = -marginPx * scale;  // +-0 without a margin: the same test as sx < 0
  const float lo = kInsideMargin, hi = 1.0f - kInsideMargin;
  CornerClass c;
  c.outside = uint32_t(sx < low) | uint32_t(sx > (p.width + marginPx) * scale) << 1 |
              uint32_t(sy < low) << 2 | uint32_t(sy > (p.height + marginPx) * scale) << 3 |
              uint32_t(w < p.nearPlane) << 4 | uint32_t(w > p.farPlane) << 5;
  c.inside = sx > lo * p.width * scale && sx < hi * p.width * scale && sy > lo * p.height * scale &&
             sy < hi * p.height * scale && w > p.nearPlane * (1.0f + kInsideMargin) &&
             w < p.farPlane * hi;
  return c;
}

PCV_HOST_DEVICE PCV_FORCE_INLINE CornerClass classifyCorner(const BatchProjection& p, int corner,
                                                            float marginPx = 0.0f) {
  return classifyCorner(p, projectCorner(p, corner), marginPx);
}

/// The batch's visibility from its corners' classes: outside when all corners are beyond one
/// side, inside when all are inside by the margin, else partial. Conservative: a box that only
/// nears a frustum corner counts as partial.
PCV_HOST_DEVICE PCV_FORCE_INLINE BatchVisibility combineCorners(uint32_t outsideAll,
                                                                bool insideAll) {
  if (outsideAll != 0) return BatchVisibility::kOutside;
  return insideAll ? BatchVisibility::kInside : BatchVisibility::kPartial;
}

/// Classifies the batch box by its eight corners.
PCV_HOST_DEVICE inline BatchVisibility classifyBatch(const BatchProjection& p) {
  uint32_t outsideAll = 0x3f;
  bool insideAll = true;
  for (int corner = 0; corner < 8; ++corner) {
    const CornerClass c = classifyCorner(p, corner);
    outsideAll &= c.outside;
    insideAll = insideAll && c.inside;
  }
  return combineCorners(outsideAll, insideAll);
}

/// Whether the batch box lies entirely beyond one side of the view, the image grown by marginPx
/// on each side (so batches just outside still draw the part of their footprints that reaches in).
PCV_HOST_DEVICE inline bool batchOutsideView(const BatchProjection& p, float marginPx) {
  uint32_t outsideAll = 0x3f;
  for (int corner = 0; corner < 8; ++corner)
    outsideAll &= classifyCorner(p, corner, marginPx).outside;
  return outsideAll != 0;
}

/// A quantized point projected to the screen: its pixel is (floor(x), floor(y)).
struct ScreenPoint {
  float x, y;  ///< pixel coordinates, 0 <= x < width and 0 <= y < height
  float w;     ///< view depth, near < w < far
};

/// Projects one quantized point of the batch. Drawn are points with near < w < far whose pixel
/// (floor of sx/w, sy/w) lies in the image; invalid words never are. With kTested false (a batch
/// classified kInside, whose points all pass) the range tests are skipped; the result is the same.
/// With kMargin the image counts as grown by marginPx on each side (footprints wider than a
/// pixel reach in from there); the coordinates are then in (-marginPx, size + marginPx).
template <bool kTested = true, bool kMargin = false>
PCV_HOST_DEVICE PCV_FORCE_INLINE bool projectQuantizedToScreen(const BatchProjection& p,
                                                               uint32_t word, ScreenPoint& out,
                                                               float marginPx = 0.0f) {
  if (word & kInvalidQuantized) return false;
  const float x = smallUintToFloat(word & 1023u);
  const float y = smallUintToFloat((word >> 10) & 1023u);
  const float z = smallUintToFloat(word >> 20);
  const float w = affine(p.w, x, y, z);
  // "not inside" forms reject NaN too.
  if (kTested && !(w > p.nearPlane && w < p.farPlane)) return false;
  const float sx = affine(p.sx, x, y, z), sy = affine(p.sy, x, y, z);
  const float low = kMargin ? -marginPx * screenScale(p, w) : 0.0f;
  if (kTested && !(sx >= low && sy >= low)) return false;
  // near < w < far here (tested, or for kInside batches implied by the box corners).
  const float invW = p.orthographic ? 1.0f : reciprocalInViewRange(w);
  out.x = sx * invW;
  out.y = sy * invW;
  out.w = w;
  const float width = kMargin ? p.width + marginPx : p.width;
  const float height = kMargin ? p.height + marginPx : p.height;
  return !kTested || (out.x < width && out.y < height);
}

/// projectQuantizedToScreen, as a pixel.
template <bool kTested = true>
PCV_HOST_DEVICE PCV_FORCE_INLINE bool projectQuantized(const BatchProjection& p, uint32_t word,
                                                       PixelHit& hit) {
  ScreenPoint point;
  if (!projectQuantizedToScreen<kTested>(p, word, point)) return false;
  hit.x = int(floorToUint(point.x));
  hit.y = int(floorToUint(point.y));
  hit.viewDepth = point.w;
  hit.ndcDepth01 = 0.0f;  // not used by the compact methods
  return true;
}

}  // namespace pcv
