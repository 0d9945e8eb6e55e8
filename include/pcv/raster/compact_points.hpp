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
  float min[3];     ///< box minimum (offsets from the cloud's origin)
  float step[3];    ///< box extent / kQuantSteps: the size of one quantization step per axis
  uint32_t first;   ///< index of the batch's first point
  uint32_t count;   ///< points in the batch, 1 .. kBatchSize
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

/// The batch's matrix: viewProjection * translate(min) * scale(step), so a point's clip
/// position is this matrix times its integer step counts. Computed once per batch.
PCV_HOST_DEVICE inline void batchMatrix(const float* viewProjection, const Batch& batch,
                                        float* out) {
  for (int row = 0; row < 4; ++row) {
    for (int axis = 0; axis < 3; ++axis) {
      out[axis * 4 + row] = viewProjection[axis * 4 + row] * batch.step[axis];
    }
    out[12 + row] = viewProjection[row] * batch.min[0] + viewProjection[4 + row] * batch.min[1] +
                    viewProjection[8 + row] * batch.min[2] + viewProjection[12 + row];
  }
}

/// True when the whole box lies outside one plane of the clip volume; conservative (a box that
/// only touches the frustum's corner region may be kept).
PCV_HOST_DEVICE inline bool batchOutsideFrustum(const float* matrix) {
  // Corners of the box are the integer points (0|kQuantSteps)^3 under the batch matrix.
  uint32_t outsideAll = 0x3f;  // bit per plane: -x, +x, -y, +y, -z, +z
  for (int corner = 0; corner < 8; ++corner) {
    const float q[3] = {corner & 1 ? float(kQuantSteps) : 0.0f,
                        corner & 2 ? float(kQuantSteps) : 0.0f,
                        corner & 4 ? float(kQuantSteps) : 0.0f};
    float clip[4];
    for (int row = 0; row < 4; ++row) {
      clip[row] = matrix[row] * q[0] + matrix[4 + row] * q[1] + matrix[8 + row] * q[2] +
                  matrix[12 + row];
    }
    uint32_t outside = 0;
    outside |= (clip[0] < -clip[3]) << 0;
    outside |= (clip[0] > clip[3]) << 1;
    outside |= (clip[1] < -clip[3]) << 2;
    outside |= (clip[1] > clip[3]) << 3;
    outside |= (clip[2] < -clip[3]) << 4;
    outside |= (clip[2] > clip[3]) << 5;
    outsideAll &= outside;
  }
  return outsideAll != 0;
}

/// Projects one quantized point with its batch's matrix; the same rules as projectPoint.
PCV_HOST_DEVICE PCV_FORCE_INLINE bool projectQuantized(const float* batchMatrix, uint32_t word,
                                                       int width, int height, PixelHit& hit) {
  if (word & kInvalidQuantized) return false;
  return projectToPixel(batchMatrix, float(word & 1023u), float((word >> 10) & 1023u),
                        float((word >> 20) & 1023u), width, height, hit);
}

}  // namespace pcv
