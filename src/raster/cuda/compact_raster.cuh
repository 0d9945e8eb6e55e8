/// @brief The cull and raster stages of the compact layout (1-pixel points, closest point per
/// pixel), shared by the compact method and the quality pipeline:
///   cull    eight threads per batch, one per box corner: the batch's projection to pixels, and
///           whether its box is outside the view (skipped), inside (its points skip the range
///           tests) or partial; with a clip region, whether the region keeps all, none or part
///           of the batch (only then are its points tested against the region); likewise with
///           a point filter, from the batch's summary.
///   raster  kSlices blocks per batch, 16-byte loads of 4 points per thread, early-z (read the
///           pixel's depth, skip the atomic when farther), 64-bit atomicMin of depth|index.
#pragma once

#include "cuda_method.hpp"
#include "shared/clip_region.hpp"
#include "shared/compact_points.hpp"
#include "shared/point_filter_frame.hpp"

namespace pcv::cuda {

/// What the cull stage leaves for the raster stage about one batch. 16-byte aligned so a block
/// reads it in a few wide loads.
struct alignas(16) CulledBatch {
  BatchProjection projection;
  BatchVisibility visibility;
  uint32_t first;     ///< the batch's first point slot
  uint32_t count;     ///< its points
  /// Per-point tests: bit 0 the clip region's faces cross the batch, bit 1 the filter passes
  /// some of its points but not all; either sends the batch to the tested raster kernel.
  uint32_t tests;
};
// No padding: a block reads every byte of its CulledBatch, and padding bytes the cull never
// writes would be reads of uninitialised memory.
static_assert(sizeof(CulledBatch) == sizeof(BatchProjection) + 16);

class CompactRasterStages {
 public:
  /// Launches "cull" and "raster" on the frame's recorder: the closest point of each pixel, as
  /// depth|index words, into `words` (device memory, one per pixel, kEmptyPixel where clear).
  void draw(const FrameContext& frame, unsigned long long* words);

 private:
  DeviceBuffer<CulledBatch> culled_;
  DeviceBuffer<BatchClip> clips_;  // one per batch drawn, written for kClipTestedBatch batches
};

}  // namespace pcv::cuda
