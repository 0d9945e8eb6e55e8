/// @brief The CUDA backend's point pool and the layout of a slice of points into it: Morton order
/// with CUB's stable radix sort, and the compact layout of the fast method. GPU twins of the CPU
/// steps (src/raster/cpu/point_layout.hpp), bit for bit.
#pragma once

#include <cuda_runtime_api.h>

#include "../raster_backend.hpp"
#include "pcv/core/point.hpp"
#include "pcv/cuda/device_buffer.hpp"
#include "shared/compact_points.hpp"
#include "shared/point_filter_frame.hpp"

namespace pcv::cuda {

/// Words of pass bits per batch slot: one bit per point of a full batch.
constexpr uint32_t kPassWordsPerBatch = kBatchSize / 32;

/// The slots every set of the CUDA backend lives in; a point's slot index is its framebuffer
/// payload.
struct DevicePointPool {
  DeviceBuffer<uint32_t> positions;  ///< quantized position words (compact layout)
  DeviceBuffer<uint32_t> colors;     ///< RGBA8 (compact layout)
  DeviceBuffer<Batch> batches;       ///< batch slots; free ones hold no points
  DeviceBuffer<Point> points;        ///< the 16-byte points, when the storage keeps them
  // Filter data: empty until a set stores some (Renderer::setFilterData), then pool-sized.
  DeviceBuffer<uint16_t> filterWords;    ///< packFilterWord per point slot
  DeviceBuffer<float> rangeValues;       ///< a range attribute's value per point slot
  DeviceBuffer<BatchSummary> summaries;  ///< per batch slot
  // The verdicts of the frame's filter on the points of the batches it splits, kept for the
  // next frames of the same filter, which then read 1 bit per point instead of the words and
  // values: kPassWordsPerBatch words per batch slot (bit i: point first + i passes), and per
  // batch slot the filter generation they hold (FrameContext::filterGeneration; 0: none).
  // Mutable: a cache the frames write while they read the pool.
  mutable DeviceBuffer<uint32_t> passBits;
  mutable DeviceBuffer<uint32_t> passStamps;

  uint64_t bytes() const {
    return positions.bytes() + colors.bytes() + batches.bytes() + points.bytes() +
           filterWords.bytes() + rangeValues.bytes() + summaries.bytes() + passBits.bytes() +
           passStamps.bytes();
  }
  FilterArrays filterArrays() const {
    return {summaries.size() ? summaries.data() : nullptr,
            filterWords.size() ? filterWords.data() : nullptr,
            rangeValues.size() ? rangeValues.data() : nullptr};
  }
};

/// Device bytes per point layoutSlice needs besides the pool (the slice, keys, indices and a
/// sorted copy); what a slice's layout costs, whatever the set's size.
constexpr uint64_t kSliceLayoutBytesPerPoint = sizeof(Point) + 24 + sizeof(Point);

/// The device buffers a slice's layout works in: the slice itself, the sort's keys and indices
/// (twice), CUB's scratch, the box and the sorted copy. Kept from slice to slice, so the many
/// small slices of a stream's nodes allocate nothing (and never free: a cudaFree waits for the
/// whole device, frames in flight included); after a slice of more than kKeptPoints they are
/// freed (trim), so a whole cloud's layout does not hold its workspace for good.
struct SliceWorkspace {
  static constexpr uint64_t kKeptPoints = uint64_t(1) << 20;  ///< 56 MiB of workspace

  DeviceBuffer<Point> slice;  ///< the caller fills it, then calls layoutSlice on it
  DeviceBuffer<Point> sorted;
  DeviceBuffer<uint64_t> codes, sortedCodes;
  DeviceBuffer<uint32_t> indices, order;
  DeviceBuffer<uint8_t> reduceScratch, sortScratch;
  DeviceBuffer<float> bounds;  ///< the slice's finite box: min x, y, z, then max

  /// Frees the buffers when they grew past kKeptPoints; the device must be done with them (a
  /// layoutSlice that returned is).
  void trim() {
    if (slice.size() > kKeptPoints || codes.size() > kKeptPoints) *this = SliceWorkspace();
  }
};

/// Orders the `count` points at `slice` (device memory) by Morton code, stably, and lays them
/// out into the pool: the compact layout at point slots [pointFirst, pointFirst + count) and
/// batch slots from batchFirst on, and the sorted 16-byte points there too when `keepPoints`.
/// With `hostOrder` (host memory, `count` entries), hostOrder[i] is set to the slice index of the
/// point stored at slot pointFirst + i. Works in `workspace` (growing it as needed; `slice` may
/// be its slice buffer) and returns once the layout is done. Throws OutOfMemoryError naming the
/// sizes when the workspace does not fit.
void layoutSlice(const Point* slice, uint64_t count, DevicePointPool& pool, uint64_t pointFirst,
                 uint64_t batchFirst, bool keepPoints, uint32_t* hostOrder,
                 SliceWorkspace& workspace, cudaStream_t stream);

/// Writes non-finite points into point slots and empty batches into batch slots (of the pool's
/// buffers that exist).
void emptySlots(DevicePointPool& pool, PointRange points, PointRange batches, cudaStream_t stream);

}  // namespace pcv::cuda
