/// @brief What a backend (cpu, cuda) supplies to the renderer: a pool of point and batch slots
/// in its memory, the layout of a slice of points into it, and the draws of each pipeline. The
/// renderer (renderer.cpp) owns the sets, the validation and the choice of pipeline.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "pcv/core/error.hpp"
#include "pcv/core/point.hpp"
#include "pcv/core/point_producer.hpp"
#include "pcv/core/stage_timings.hpp"
#include "pcv/raster/projection.hpp"
#include "pcv/raster/raster_method.hpp"
#include "pcv/raster/render_settings.hpp"
#include "pcv/raster/render_target.hpp"
#include "pcv/raster/renderer.hpp"
#include "shared/clip_region.hpp"
#include "shared/compact_points.hpp"
#include "shared/point_filter_frame.hpp"

namespace pcv {

struct LaidOutArrays;

/// Point slots are handed out in multiples of this, so every batch starts 16-byte aligned.
constexpr uint64_t kPointSlotAlignment = 16;

/// A range of point slots of the pool.
struct PointRange {
  uint64_t first = 0;
  uint64_t count = 0;
};

/// The stages a frame runs, chosen by the renderer.
enum class DrawPipeline : uint8_t { Compact, EarlyZ, Packed, Seed, Quality };

/// What to draw: every slot in use (free batch slots hold no points, free point slots non-finite
/// points, so drawing them costs little and draws nothing), or a list.
struct DrawList {
  bool everything = true;
  uint64_t batchSlots = 0;              ///< with everything: batch slots [0, batchSlots)
  uint64_t pointSlots = 0;              ///< with everything: point slots [0, pointSlots)
  std::vector<uint32_t> batches;        ///< otherwise: these batch slots (compact layout)
  std::vector<PointRange> pointRanges;  ///< otherwise: these point slots (16-byte points)
};

/// A rectangle of framebuffer pixels, row 0 at the bottom.
struct PixelRect {
  int x = 0, y = 0;  ///< the lower-left pixel
  int width = 0, height = 0;
};

/// What the pool holds at one point slot.
struct StoredPoint {
  bool hasPoint = false;  ///< the storage keeps the 16-byte points
  Point point{};          ///< with hasPoint: the point as given
  uint32_t position = 0;  ///< the compact layout's quantized word (sorted storage)
  Batch batch{};          ///< the compact layout's batch the point lies in
};

struct FrameDraw {
  DrawPipeline pipeline = DrawPipeline::Compact;
  ViewTransform view;
  const RenderSettings* settings = nullptr;  ///< background and quality
  ClipFrame clip{};                          ///< settings->clip in the points' coordinates
  FilterFrame filter{};                      ///< settings->filter for the kernels
  RenderTarget target;
  const DrawList* list = nullptr;
};

class RasterBackend {
 public:
  virtual ~RasterBackend() = default;
  virtual std::string name() const = 0;
  virtual std::string deviceDescription() const = 0;
  virtual bool implements(RasterMethod method) const = 0;
  virtual void setTimeStages(bool perStage) = 0;
  virtual void* cudaStream() const { return nullptr; }
  /// Memory for frames another API imports (Renderer::exportImageMemory).
  virtual ExportedImageMemory exportImageMemory(int, int) {
    throw UnavailableError("the " + name() + " backend exports no memory to other APIs");
  }
  /// True where the pool and the frames live on a GPU (not the CPU backend, not a software
  /// Vulkan device): what the default point budget and stream memory go by.
  virtual bool onGpu() const { return false; }
  /// True where storeSlice sorts and lays the points out on the device itself (CUDA's radix
  /// sort), so a set handed over unsorted costs the host nothing but the copy.
  virtual bool laysOutOnDevice() const { return false; }
  /// One line per compiled kernel with the resources its driver reports (registers, shared
  /// memory), where the backend can ask (Renderer::kernelStatistics).
  virtual std::vector<std::string> kernelStatistics() const { return {}; }

  /// Grows the pool to at least `points` point slots and `batches` batch slots, keeping what it
  /// holds; new point slots hold non-finite points and new batch slots no points. Throws
  /// OutOfMemoryError naming the sizes.
  virtual void reservePool(uint64_t points, uint64_t batches) = 0;
  /// Frees the whole pool (no set is left in it).
  virtual void freePool() = 0;
  /// Bytes the pool holds.
  virtual uint64_t poolBytes() const = 0;
  /// Bytes of the memory the pool lives in that are free now (GPU or host memory).
  virtual uint64_t freeMemoryBytes() const = 0;
  /// Lays out points [sourceFirst, sourceFirst + count) of `source` (one layout slice)
  /// into point slots from `pointFirst` on and batch slots from `batchFirst` on: Morton order
  /// and the compact layout's batches where the storage sorts, the 16-byte points where it
  /// keeps them. With a sorting storage and `order` not null (host memory, `count` entries),
  /// order[i] is set to the slice index of the point stored at slot pointFirst + i.
  virtual void storeSlice(const PointProducer& source, uint64_t sourceFirst, uint64_t count,
                          uint64_t pointFirst, uint64_t batchFirst, uint32_t* order) = 0;
  /// Copies a set laid out ahead of time (laid_out_arrays.hpp) into point slots from
  /// `pointFirst` and batch slots from `batchFirst`, its filter data too when it has some: a
  /// copy, no layout work, and no wait for the frames in flight.
  virtual void storeLaidOut(const LaidOutArrays& set, uint64_t pointFirst,
                            uint64_t batchFirst) = 0;
  /// Stores the filter words (packFilterWord, one per point slot of `points`, stored order) and,
  /// when `values` is not null, the range values of those slots, and summarizes `batches` (the
  /// set's batch slots). The first call allocates the filter arrays for the whole pool; pools
  /// without them cost nothing. Throws OutOfMemoryError.
  virtual void storeFilterData(PointRange points, PointRange batches, const uint16_t* words,
                               const float* values) = 0;
  /// Replaces the colours (packed RGBA8, one per point slot of `points`, stored order) of
  /// points laid out before, positions and batches unchanged: a class recoloured in place.
  virtual void storeColors(PointRange points, const uint32_t* colors) = 0;
  /// Some points' colours and classes changed where they lie, the rest untouched: point i of
  /// `changes` gets colour colors[i] in pool point slot pointSlots[i] and, when `classes` is not
  /// null and the pool holds filter words, class classes[i] in its word (the other fields kept),
  /// its batch (pool batch slot batchSlots[i]) summarized as holding that class too (a summary
  /// that also names a class no point has any more only costs a batch skipped less often).
  /// `batches` are the set's batch slots, whose cached filter verdicts this makes stale. False,
  /// with nothing changed, where the backend cannot (then storeColors and storeFilterData do it).
  struct ClassChanges {
    std::span<const uint32_t> pointSlots;
    std::span<const uint32_t> batchSlots;
    const uint32_t* colors = nullptr;
    const uint8_t* classes = nullptr;  ///< null: the classes stay
    PointRange batches;
  };
  virtual bool storeClassChanges(const ClassChanges& changes) {
    (void)changes;
    return false;
  }
  /// Empties the slots of a removed set (non-finite points, batches of no points).
  virtual void releaseSlots(PointRange points, PointRange batches) = 0;
  /// The 16-byte points of the slots, in stored order; empty when the storage keeps none.
  virtual std::vector<Point> downloadPoints(PointRange points) const = 0;
  /// What point slot `pointSlot` and batch slot `batchSlot` hold (sorted storage).
  virtual StoredPoint storedPoint(uint64_t pointSlot, uint64_t batchSlot) const = 0;

  /// Runs the frame's stages. No host synchronization for Device and CudaSurface targets.
  virtual void draw(const FrameDraw& frame) = 0;
  /// Runs only the depth pass of the frame (pipeline Compact or Quality; the target is not
  /// written, the last frame's timings are kept) and returns the framebuffer words of `rect`,
  /// row by row from the bottom: kEmptyPixel, or depth | pool slot of the point drawn there.
  virtual std::vector<uint64_t> pickWords(const FrameDraw& frame, PixelRect rect) = 0;
  virtual StageTimings lastTimings() = 0;
  /// The last frame's work after drawing, on the GPU: "copy" (to host memory); empty for
  /// backends that have none.
  virtual StageTimings lastReadbackTimings() { return {}; }
};

/// Batch slots a slice of `count` points takes (count of batches).
constexpr uint64_t batchesForPoints(uint64_t count) {
  return (count + kBatchSize - 1) / kBatchSize;
}

}  // namespace pcv
