/// @brief A point set laid out for drawing ahead of time, on any thread, so that adding it to a
/// renderer is a copy of its arrays: a stream's loader threads lay out the nodes they decode, and
/// the frame thread never sorts or packs points (ReservedPool::tryAddSet). The layout is the
/// renderer's own, bit for bit (Morton order slice by slice, the compact layout's batches, the
/// filter words in stored order), so a set drawn either way draws the same pixels.
#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include "pcv/core/point.hpp"
#include "pcv/raster/renderer.hpp"

namespace pcv {

/// What a renderer's layout depends on (Renderer::layoutSpec()): a set laid out for one spec is
/// refused by a renderer of another.
struct LayoutSpec {
  PointStorage storage = PointStorage::CompactAndPoints;
  uint64_t slicePoints = 0;  ///< points per layout slice (RendererOptions::layoutSliceBatches)
  bool operator==(const LayoutSpec&) const = default;
};

struct LaidOutArrays;  // the arrays themselves (src/raster/laid_out_arrays.hpp)

/// Move-only; empty when default-constructed.
class LaidOutSet {
 public:
  LaidOutSet();
  ~LaidOutSet();
  LaidOutSet(LaidOutSet&&) noexcept;
  LaidOutSet& operator=(LaidOutSet&&) noexcept;
  LaidOutSet(const LaidOutSet&) = delete;
  LaidOutSet& operator=(const LaidOutSet&) = delete;

  /// Points of the set (count of points, not bytes).
  uint64_t pointCount() const;
  /// Host memory its arrays take, in bytes.
  uint64_t hostBytes() const;
  const LaidOutArrays& arrays() const { return *arrays_; }

 private:
  friend LaidOutSet layOutSet(std::span<const Point>, const LayoutSpec&, bool,
                              const FilterData*);
  std::unique_ptr<LaidOutArrays> arrays_;
};

/// Lays out `points` as a renderer of `spec` would in addSet, on the calling thread alone (it
/// runs beside the frames, so it takes no other core): the source order kept with
/// `keepSourceOrder` (Renderer::sourceIndex), and with `filter` (spans over the given points'
/// values) the filter data stored with the set, as Renderer::setFilterData stores it. Throws
/// InputError for filter data with unsorted storage or of a wrong count.
LaidOutSet layOutSet(std::span<const Point> points, const LayoutSpec& spec,
                     bool keepSourceOrder = false, const FilterData* filter = nullptr);

}  // namespace pcv
