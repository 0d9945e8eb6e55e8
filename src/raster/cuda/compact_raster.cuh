/// @brief The cull and raster stages of the compact layout (1-pixel points, closest point per
/// pixel), shared by the compact method and the quality pipeline:
///   cull    eight threads per batch, one per box corner: the batch's projection to pixels, and
///           whether its box is outside the view (skipped), inside (its points skip the range
///           tests) or partial; with a clip region, whether the region keeps all, none or part
///           of the batch (only then are its points tested against the region); likewise with
///           a point filter, from the batch's summary. Batches with per-point tests go onto a
///           list of their own.
///   raster  kSlices blocks per batch, 16-byte loads of 4 points per thread, early-z (read the
///           pixel's depth, skip the atomic when farther), 64-bit atomicMin of depth|index; for
///           the batches without per-point tests, which are all of an unclipped, unfiltered
///           frame's and all that a filter keeps whole, and for those whose pass bits hold the
///           frame's filter's verdicts (1 bit per point, read instead of the words and values).
///   filter raster, clip raster  the listed batches, by as many blocks as the GPU holds at once
///           (so a frame whose filter or clip splits few batches pays nothing per batch for
///           them), testing only what the batch needs: the clip region, the filter word, the
///           range value. The filter raster keeps its verdicts in the pass bits for the next
///           frames of the same filter.
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
  /// Per-point tests: kClipTest (the clip region's faces cross the batch) and the batch's
  /// BatchFilterTests shifted by kFilterTestShift; any sends the batch to a tested raster.
  uint32_t tests;
};

/// CulledBatch::tests: the clip test, where the filter's tests (BatchFilterTests) start, and
/// for a batch of the filter raster whether its pass bits hold this filter's verdicts (read them
/// instead of the words and values) or are to be written now.
constexpr uint32_t kClipTest = 1u;
constexpr uint32_t kFilterTestShift = 1;
constexpr uint32_t kPassBitsRead = 1u << 3;
constexpr uint32_t kPassBitsWrite = 1u << 4;
// No padding: a block reads every byte of its CulledBatch, and padding bytes the cull never
// writes would be reads of uninitialised memory.
static_assert(sizeof(CulledBatch) == sizeof(BatchProjection) + 16);

class CompactRasterStages {
 public:
  /// Launches "cull" and "raster" (and with a clip region or a filter "filter raster" and "clip
  /// raster") on the frame's recorder: the closest point of each pixel, as depth|index words,
  /// into `words` (device memory, one per pixel, kEmptyPixel where clear).
  void draw(const FrameContext& frame, unsigned long long* words);

 private:
  DeviceBuffer<CulledBatch> culled_;
  DeviceBuffer<BatchClip> clips_;  // one per batch drawn, written for kClipTest batches
  // With a clip region or a filter: the batches with per-point tests, as indices into culled_,
  // in one list per tested raster kernel (batchCount entries each), and their counts, zeroed
  // before each cull.
  DeviceBuffer<uint32_t> testedBatches_;
  DeviceBuffer<uint32_t> testedCounts_;
  int filterRasterBlocks_ = 0;  // blocks the GPU holds at once of each tested raster kernel
  int clipRasterBlocks_ = 0;
};

}  // namespace pcv::cuda
