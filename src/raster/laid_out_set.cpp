// Sets laid out on the host ahead of time: the CPU backend's slice layout into a pool of the
// set's own size, which a backend then copies into its slots.
#include "pcv/raster/laid_out_set.hpp"

#include <algorithm>

#include "laid_out_arrays.hpp"
#include "pcv/core/error.hpp"
#include "pcv/core/host_memory.hpp"
#include "pcv/core/parallel.hpp"
#include "raster_backend.hpp"
#include "shared/point_filter_frame.hpp"

namespace pcv {

LaidOutSet::LaidOutSet() = default;
LaidOutSet::~LaidOutSet() = default;
LaidOutSet::LaidOutSet(LaidOutSet&&) noexcept = default;
LaidOutSet& LaidOutSet::operator=(LaidOutSet&&) noexcept = default;

uint64_t LaidOutSet::pointCount() const {
  return arrays_ ? arrays_->count : 0;
}

uint64_t LaidOutSet::hostBytes() const {
  if (!arrays_) return 0;
  const LaidOutArrays& a = *arrays_;
  return a.layout.positions.size() * 4 + a.layout.colors.size() * 4 +
         a.layout.points.size() * sizeof(Point) + a.layout.batches.size() * sizeof(Batch) +
         a.sourceOrder.size() * 4 + a.filterWords.size() * 2 + a.rangeValues.size() * 4;
}

uint8_t filterFieldValue(float value, float high) {
  // Values as the readers hold them (floats of whole numbers), clamped to the word's fields.
  return value >= 0.0f ? uint8_t(value < high ? value : high) : 0;
}

FilterFields filterFieldsAt(const FilterData& data, uint64_t i) {
  auto field = [&](std::span<const float> values, float high) -> uint8_t {
    return values.empty() ? 0 : filterFieldValue(values[i], high);
  };
  return FilterFields{.classification = field(data.classification, 255.0f),
                      .returnNumber = field(data.returnNumber, 15.0f),
                      .numberOfReturns = field(data.numberOfReturns, 15.0f),
                      .rangeValue = data.hasRangeValues() ? data.rangeValueAt(i) : 0.0f};
}

uint32_t filterFieldBits(const FilterData& data) {
  return (data.classification.empty() ? 0u : 1u) | (data.returnNumber.empty() ? 0u : 2u) |
         (data.numberOfReturns.empty() ? 0u : 4u);
}

LaidOutSet layOutSet(std::span<const Point> points, const LayoutSpec& spec, bool keepSourceOrder,
                     const FilterData* filter) {
  if (spec.slicePoints == 0) throw InputError("a layout needs slices of at least one point");
  const bool sorted = spec.storage != PointStorage::Unsorted;
  const bool keepsPoints = spec.storage != PointStorage::Compact;
  const uint64_t count = points.size();
  if (filter) {
    if (!sorted) {
      throw InputError("filter data needs the compact layout; this storage keeps unsorted points");
    }
    for (const uint64_t size : {filter->classification.size(), filter->returnNumber.size(),
                                filter->numberOfReturns.size(), filter->rangeValueCount()}) {
      if (size != 0 && size != count) {
        throw InputError("filter data of " + std::to_string(size) + " values for a set of " +
                         std::to_string(count) + " points");
      }
    }
  }
  // Beside the frames: one core, as a decoder thread has (the frame thread keeps the others).
  const WorkerLimit oneCore(1);
  LaidOutSet set;
  set.arrays_ = std::make_unique<LaidOutArrays>();
  LaidOutArrays& a = *set.arrays_;
  a.spec = spec;
  a.count = count;
  uint64_t batches = 0;
  for (uint64_t first = 0; first < count; first += spec.slicePoints) {
    batches += batchesForPoints(std::min(spec.slicePoints, count - first));
  }
  requireHostMemory("a point set laid out ahead", count,
                    (sorted ? 8 : 0) + (keepsPoints ? sizeof(Point) : 0) + 4);
  if (sorted) {
    a.layout.positions.resize(count);
    a.layout.colors.resize(count);
    a.layout.batches.resize(batches);
  }
  if (keepsPoints) a.layout.points.resize(count);
  const bool keepsOrder = sorted && (keepSourceOrder || filter);
  if (keepsOrder) a.sourceOrder.resize(count);
  uint64_t batch = 0;
  for (uint64_t first = 0; first < count; first += spec.slicePoints) {
    const uint64_t slice = std::min(spec.slicePoints, count - first);
    uint32_t* order = keepsOrder ? a.sourceOrder.data() + first : nullptr;
    layOutSlice(points.subspan(first, slice), a.layout, first, batch, sorted, keepsPoints, order);
    // The layout numbers a slice's points from 0; the set numbers them from its start.
    for (uint64_t i = 0; order && i < slice; ++i) order[i] += uint32_t(first);
    batch += batchesForPoints(slice);
  }
  if (filter) {
    const bool withValues = filter->hasRangeValues();
    a.filterWords.resize(count);
    if (withValues) a.rangeValues.resize(count);
    for (uint64_t i = 0; i < count; ++i) {
      const FilterFields f = filterFieldsAt(*filter, a.sourceOrder[i]);
      a.filterWords[i] = packFilterWord(f.classification, f.returnNumber, f.numberOfReturns);
      if (withValues) a.rangeValues[i] = f.rangeValue;
    }
    a.summaries.resize(a.layout.batches.size());
    for (size_t b = 0; b < a.summaries.size(); ++b) {
      const Batch& box = a.layout.batches[b];
      a.summaries[b] = summarizeBatch(a.filterWords.data() + box.first,
                                      withValues ? a.rangeValues.data() + box.first : nullptr,
                                      box.count);
    }
    a.filterFields = filterFieldBits(*filter);
    if (withValues) a.rangeAttribute = filter->rangeAttribute;
  }
  // The filter asked for the order; the set keeps it only when asked (4 bytes a point).
  if (!keepSourceOrder) a.sourceOrder = {};
  return set;
}

}  // namespace pcv
