// The renderer's front: the sets and their slots, the checks every backend shares, and the
// choice of pipeline; the backends supply storage and draws (raster_backend.hpp).
#include "pcv/raster/renderer.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <map>
#include <utility>

#include "clip_frame.hpp"
#include "laid_out_arrays.hpp"
#include "filter_frame.hpp"
#include "cpu/cpu_backend.hpp"
#include "pcv/core/error.hpp"
#include "pcv/core/host_memory.hpp"
#include "pcv/core/parallel.hpp"
#include "shared/framebuffer_word.hpp"
#include "range_allocator.hpp"
#include "raster_backend.hpp"
#if PCV_WITH_VULKAN
#include "vulkan/vulkan_backend.hpp"
#endif
#if PCV_WITH_CUDA
#include "cuda/cuda_backend.hpp"
#endif

namespace pcv {
namespace {

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const auto& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

uint64_t roundUp(uint64_t value, uint64_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

/// Batch slots a set of `count` points takes: slice by slice, each slice's last batch partial.
uint64_t batchSlotsFor(uint64_t count, uint64_t slicePoints) {
  return count / slicePoints * batchesForPoints(slicePoints) +
         batchesForPoints(count % slicePoints);
}

DrawPipeline pipelineFor(RasterMethod method) {
  switch (method) {
    case RasterMethod::Compact:
      return DrawPipeline::Compact;
    case RasterMethod::EarlyZ:
      return DrawPipeline::EarlyZ;
    case RasterMethod::Packed:
      return DrawPipeline::Packed;
    case RasterMethod::Seed:
      return DrawPipeline::Seed;
  }
  return DrawPipeline::Compact;
}

}  // namespace

/// A reserved pool: a range of the pool's point slots and one of its batch slots, taken from the
/// shared allocators as if by one set, and handed out to its own sets by allocators of its own
/// (slots counted from the range's start). So the backends keep one pool, a frame draws and picks
/// across every set by pool slot, and the shared rest grows around the reservation.
struct Reservation {
  uint64_t pointFirst = 0, pointSlots = 0;
  uint64_t batchFirst = 0, batchSlots = 0;
  RangeAllocator points;   // within [0, pointSlots)
  RangeAllocator batches;  // within [0, batchSlots)
};

struct Renderer::Pool {
  RangeAllocator points;                      // slots of points
  RangeAllocator batches;                     // slots of batches (compact layout)
  std::map<uint64_t, PointSetId> setAtPoint;  // first point slot -> set
  std::map<uint32_t, Reservation> reservations;
};

Renderer::Renderer(std::unique_ptr<RasterBackend> backend, const RendererOptions& options)
    : backend_(std::move(backend)), options_(options), pool_(std::make_unique<Pool>()) {
  if (options_.layoutSliceBatches == 0) throw InputError("layout slices need at least one batch");
  backend_->setTimeStages(options.timeStages);
}

Renderer::~Renderer() = default;

std::string Renderer::backendName() const {
  return backend_->name();
}

std::string Renderer::deviceDescription() const {
  return backend_->deviceDescription();
}

bool Renderer::onGpu() const {
  return backend_->onGpu();
}

bool Renderer::laysOutOnDevice() const {
  return backend_->laysOutOnDevice();
}

std::vector<std::string> Renderer::kernelStatistics() const {
  return backend_->kernelStatistics();
}

ExportedImageMemory Renderer::exportImageMemory(int width, int height) {
  if (width <= 0 || height <= 0) throw InputError("exported frames need a positive size");
  return backend_->exportImageMemory(width, height);
}

std::vector<RasterMethod> Renderer::methods() const {
  std::vector<RasterMethod> methods;
  for (RasterMethod method : allMethods()) {
    const bool compact = method == RasterMethod::Compact;
    const bool stored = options_.storage == PointStorage::CompactAndPoints ||
                        (options_.storage == PointStorage::Compact) == compact;
    if (stored && backend_->implements(method)) methods.push_back(method);
  }
  return methods;
}

RasterMethod Renderer::methodFor(const RenderSettings& settings) const {
  const std::vector<RasterMethod> known = methods();
  if (!settings.method) return known.front();
  if (std::find(known.begin(), known.end(), *settings.method) != known.end()) {
    return *settings.method;
  }
  std::vector<std::string> names;
  for (RasterMethod method : known) names.emplace_back(methodName(method));
  throw InputError("the " + backendName() + " renderer cannot draw with method '" +
                   methodName(*settings.method) + "' here; known methods: " + joined(names));
}

PointSetId Renderer::addSet(std::span<const Point> points, const PointSetOptions& options) {
  return addSet(HostPoints(points), options);
}

uint64_t Renderer::slicePoints() const {
  return options_.layoutSliceBatches * kBatchSize;
}

void Renderer::placeInPool(SetRecord& record, bool headroom) {
  auto pointFirst = pool_->points.allocate(record.pointSlots, kPointSlotAlignment);
  auto batchFirst = pool_->batches.allocate(record.batchSlots);
  if (pointFirst && batchFirst) {
    record.pointFirst = *pointFirst;
    record.batchFirst = *batchFirst;
    return;
  }
  if (pointFirst) pool_->points.release(*pointFirst, record.pointSlots);
  if (batchFirst) pool_->batches.release(*batchFirst, record.batchSlots);
  // Grow by half again where memory allows (for sets that stream in), else by what is needed;
  // never past the slots the framebuffer's 32-bit payload can name.
  const uint64_t points = pool_->points.capacity() + record.pointSlots;
  const uint64_t batches = pool_->batches.capacity() + record.batchSlots;
  if (points > kMaxPointCount) {
    throw OutOfMemoryError(std::to_string(points) + " point slots is more than the " +
                           std::to_string(kMaxPointCount) +
                           " a renderer holds (the framebuffer names points with 32 bits)");
  }
  uint64_t pointCapacity =
      headroom ? std::clamp(pool_->points.capacity() * 3 / 2, points, kMaxPointCount) : points;
  uint64_t batchCapacity =
      headroom ? std::max(batches, pool_->batches.capacity() * 3 / 2) : batches;
  try {
    backend_->reservePool(pointCapacity, batchCapacity);
  } catch (const OutOfMemoryError&) {
    if (pointCapacity == points && batchCapacity == batches) throw;
    pointCapacity = points;
    batchCapacity = batches;
    backend_->reservePool(pointCapacity, batchCapacity);
  }
  pool_->points.grow(pointCapacity);
  pool_->batches.grow(batchCapacity);
  record.pointFirst = *pool_->points.allocate(record.pointSlots, kPointSlotAlignment);
  record.batchFirst = *pool_->batches.allocate(record.batchSlots);
}

bool Renderer::placeInReservation(SetRecord& record, uint32_t reservation) {
  Reservation& r = pool_->reservations.at(reservation);
  // The range starts aligned, so slots aligned within it are aligned in the pool.
  const auto pointFirst = r.points.allocate(record.pointSlots, kPointSlotAlignment);
  const auto batchFirst = r.batches.allocate(record.batchSlots);
  if (!pointFirst || !batchFirst) {
    if (pointFirst) r.points.release(*pointFirst, record.pointSlots);
    if (batchFirst) r.batches.release(*batchFirst, record.batchSlots);
    return false;
  }
  record.reservation = reservation;
  record.pointFirst = r.pointFirst + *pointFirst;
  record.batchFirst = r.batchFirst + *batchFirst;
  return true;
}

void Renderer::releaseSlotsOf(const SetRecord& record) {
  backend_->releaseSlots({record.pointFirst, record.pointSlots},
                         {record.batchFirst, record.batchSlots});
  if (record.reservation == 0) {
    pool_->points.release(record.pointFirst, record.pointSlots);
    pool_->batches.release(record.batchFirst, record.batchSlots);
    return;
  }
  Reservation& r = pool_->reservations.at(record.reservation);
  r.points.release(record.pointFirst - r.pointFirst, record.pointSlots);
  r.batches.release(record.batchFirst - r.batchFirst, record.batchSlots);
}

/// The slots a set of `count` points takes, before it is placed.
Renderer::SetRecord Renderer::recordFor(uint64_t count, const PointSetOptions& options) const {
  if (count > kMaxPointCount - residentPoints_) {
    throw InputError(std::to_string(residentPoints_ + count) + " points is more than the " +
                     std::to_string(kMaxPointCount) +
                     " a renderer holds (the framebuffer names points with 32 bits)");
  }
  // Empty sets take one slot of each kind, so every set has a place of its own.
  SetRecord record{.pointCount = count,
                   .pointSlots = roundUp(std::max<uint64_t>(count, 1), kPointSlotAlignment),
                   .batchCount = batchSlotsFor(count, slicePoints()),
                   .hasColor = options.hasColor};
  record.batchSlots = std::max<uint64_t>(record.batchCount, 1);
  return record;
}

PointSetId Renderer::addSet(const PointProducer& points, const PointSetOptions& options) {
  SetRecord record = recordFor(points.pointCount(), options);
  placeInPool(record, true);
  return storeSet(points, std::move(record), options);
}

PointSetId Renderer::addSet(const LaidOutSet& set, const PointSetOptions& options) {
  SetRecord record = recordFor(set.pointCount(), options);
  placeInPool(record, true);
  return storeLaidOut(set, std::move(record));
}

LayoutSpec Renderer::layoutSpec() const {
  return {.storage = options_.storage, .slicePoints = slicePoints()};
}

std::optional<PointSetId> Renderer::tryAddSetIn(uint32_t reservation, const LaidOutSet& set,
                                                const PointSetOptions& options) {
  if (set.pointCount() > 0 && !(set.arrays().spec == layoutSpec())) {
    throw InputError("a point set laid out for another renderer's layout (storage or slices)");
  }
  SetRecord record = recordFor(set.pointCount(), options);
  if (!placeInReservation(record, reservation)) return std::nullopt;
  return storeLaidOut(set, std::move(record));
}

PointSetId Renderer::storeLaidOut(const LaidOutSet& set, SetRecord record) {
  const uint64_t count = record.pointCount;
  if (count > 0) {
    const LaidOutArrays& arrays = set.arrays();
    if (!(arrays.spec == layoutSpec())) {
      releaseSlotsOf(record);
      throw InputError("a point set laid out for another renderer's layout (storage or slices)");
    }
    try {
      backend_->storeLaidOut(arrays, record.pointFirst, record.batchFirst);
    } catch (...) {
      releaseSlotsOf(record);
      throw;
    }
    record.sourceOrder = arrays.sourceOrder;
    indexSourceOrder(record);
    record.filterFields = arrays.filterFields;
    record.rangeAttribute = arrays.rangeAttribute;
  }
  added_.laidOutAhead += count;
  return registerSet(std::move(record));
}

std::optional<PointSetId> Renderer::tryAddSetIn(uint32_t reservation, const PointProducer& points,
                                                const PointSetOptions& options) {
  SetRecord record = recordFor(points.pointCount(), options);
  if (!placeInReservation(record, reservation)) return std::nullopt;
  return storeSet(points, std::move(record), options);
}

double Renderer::poolBytesPerPoint() const {
  const double perPoint = options_.storage == PointStorage::Compact    ? 8.0
                          : options_.storage == PointStorage::Unsorted ? double(sizeof(Point))
                                                                       : 8.0 + sizeof(Point);
  // Batch slots cost 32 bytes each, about one per thousand points (see reservePool).
  return perPoint + 32.0 / 1024 + 32.0 / kBatchSize;
}

ReservedPool Renderer::reservePool(uint64_t bytes) {
  const uint64_t points = uint64_t(double(bytes) / poolBytesPerPoint());
  // Taken from the shared rest like one set's slots, exactly (no room to grow into: the
  // reservation is the budget).
  SetRecord range{.pointSlots = roundUp(std::max<uint64_t>(points, 1), kPointSlotAlignment)};
  // A batch slot per batch of points, and room for the partial batch each set ends in, for sets
  // of a thousand points on average (octree nodes hold thousands to a hundred thousand); sets
  // that find no batch slot are refused like those that find no point slots.
  range.batchSlots = batchesForPoints(range.pointSlots) + range.pointSlots / 1024 + 64;
  placeInPool(range, false);
  const uint32_t id = nextReservation_++;
  Reservation& r = pool_->reservations[id];
  r.pointFirst = range.pointFirst;
  r.pointSlots = range.pointSlots;
  r.batchFirst = range.batchFirst;
  r.batchSlots = range.batchSlots;
  r.points.grow(r.pointSlots);
  r.batches.grow(r.batchSlots);
  return ReservedPool(this, id);
}

void Renderer::dropReservation(uint32_t reservation) {
  const auto found = pool_->reservations.find(reservation);
  if (found == pool_->reservations.end()) return;
  std::vector<PointSetId> inside;
  for (PointSetId id : order_) {
    if (sets_.at(id).reservation == reservation) inside.push_back(id);
  }
  for (PointSetId id : inside) removeSet(id);
  // Its free slots are already empty (new slots are, and removed sets' slots are emptied).
  const Reservation& r = found->second;
  pool_->points.release(r.pointFirst, r.pointSlots);
  pool_->batches.release(r.batchFirst, r.batchSlots);
  pool_->reservations.erase(found);
  if (sets_.empty() && pool_->reservations.empty()) clear();
}

PointSetId Renderer::storeSet(const PointProducer& points, SetRecord record,
                              const PointSetOptions& options) {
  const uint64_t count = record.pointCount;
  const bool keepsOrder = options.keepSourceOrder && options_.storage != PointStorage::Unsorted;
  if (options.progress) {
    options.progress->pointsDone = 0;
    options.progress->pointsTotal = count;
  }
  try {
    if (keepsOrder) {
      requireHostMemory("the source order of a point set and its index", count,
                        2 * sizeof(uint32_t));
      record.sourceOrder.resize(count);
    }
    uint64_t batch = record.batchFirst;
    for (uint64_t first = 0; first < count; first += slicePoints()) {
      const uint64_t slice = std::min(slicePoints(), count - first);
      uint32_t* order = keepsOrder ? record.sourceOrder.data() + first : nullptr;
      backend_->storeSlice(points, first, slice, record.pointFirst + first, batch, order);
      // The backend numbers a slice's points from 0; the set numbers them from its start.
      for (uint64_t i = 0; order && i < slice; ++i) order[i] += uint32_t(first);
      batch += batchesForPoints(slice);
      if (options.progress) options.progress->pointsDone = first + slice;
    }
    if (keepsOrder) indexSourceOrder(record);
  } catch (...) {
    // Its slots go back where they came from: the shared rest or its reserved pool.
    releaseSlotsOf(record);
    throw;
  }
  added_.laidOutHere += count;
  return registerSet(std::move(record));
}

PointSetId Renderer::registerSet(SetRecord record) {
  const uint64_t count = record.pointCount;
  const PointSetId id = nextId_++;
  sets_[id] = std::move(record);
  order_.push_back(id);
  pool_->setAtPoint[sets_[id].pointFirst] = id;
  residentPoints_ += count;
  return id;
}

void Renderer::removeSet(PointSetId set) {
  const auto found = sets_.find(set);
  if (found == sets_.end()) return;
  const SetRecord record = std::move(found->second);
  sets_.erase(found);
  std::erase(order_, set);
  pool_->setAtPoint.erase(record.pointFirst);
  residentPoints_ -= record.pointCount;
  if (sets_.empty() && pool_->reservations.empty()) {
    clear();
    return;
  }
  releaseSlotsOf(record);
}

void Renderer::clear() {
  if (!pool_->reservations.empty()) {
    // The reserved ranges stay where they are: their handles still name them.
    while (!order_.empty()) removeSet(order_.back());
    return;
  }
  sets_.clear();
  order_.clear();
  pool_->points.reset();
  pool_->batches.reset();
  pool_->setAtPoint.clear();
  residentPoints_ = 0;
  backend_->freePool();
}

std::vector<PointSetId> Renderer::sets() const {
  return order_;
}

uint64_t Renderer::pointCount(PointSetId set) const {
  const auto found = sets_.find(set);
  return found == sets_.end() ? 0 : found->second.pointCount;
}

uint64_t Renderer::residentBytes() const {
  return backend_->poolBytes();
}

uint64_t Renderer::freeMemoryBytes() const {
  return backend_->freeMemoryBytes();
}

uint64_t Renderer::reservedPointSlots() const {
  uint64_t slots = 0;
  for (const auto& [id, reservation] : pool_->reservations) slots += reservation.pointSlots;
  return slots;
}

ReservedPool::~ReservedPool() {
  try {
    reset();
  } catch (const std::exception& e) {
    // Only a failing device gets here (emptying slots); the renderer's next call reports it too.
    std::fprintf(stderr, "pcv: releasing a reserved point pool: %s\n", e.what());
  }
}

ReservedPool::ReservedPool(ReservedPool&& other) noexcept
    : renderer_(std::exchange(other.renderer_, nullptr)), id_(std::exchange(other.id_, 0)) {}

ReservedPool& ReservedPool::operator=(ReservedPool&& other) noexcept {
  if (this != &other) {
    reset();
    renderer_ = std::exchange(other.renderer_, nullptr);
    id_ = std::exchange(other.id_, 0);
  }
  return *this;
}

std::optional<PointSetId> ReservedPool::tryAddSet(const PointProducer& points,
                                                  const PointSetOptions& options) {
  if (!renderer_) return std::nullopt;
  return renderer_->tryAddSetIn(id_, points, options);
}

std::optional<PointSetId> ReservedPool::tryAddSet(const LaidOutSet& set,
                                                  const PointSetOptions& options) {
  if (!renderer_) return std::nullopt;
  return renderer_->tryAddSetIn(id_, set, options);
}

uint64_t ReservedPool::pointCapacity() const {
  return renderer_ ? renderer_->pool_->reservations.at(id_).pointSlots : 0;
}

uint64_t ReservedPool::usedPointSlots() const {
  return renderer_ ? renderer_->pool_->reservations.at(id_).points.used() : 0;
}

void ReservedPool::reset() {
  if (!renderer_) return;
  std::exchange(renderer_, nullptr)->dropReservation(id_);
  id_ = 0;
}

std::vector<Point> Renderer::downloadPoints(PointSetId set) const {
  const auto found = sets_.find(set);
  if (found == sets_.end()) return {};
  return backend_->downloadPoints({found->second.pointFirst, found->second.pointCount});
}

std::optional<PointLocation> Renderer::locate(uint32_t payload) const {
  auto next = pool_->setAtPoint.upper_bound(payload);
  if (next == pool_->setAtPoint.begin()) return std::nullopt;
  const auto& [first, id] = *std::prev(next);
  const SetRecord& record = sets_.at(id);
  if (payload - first >= record.pointCount) return std::nullopt;
  return PointLocation{.set = id, .index = payload - first};
}

std::optional<uint64_t> Renderer::sourceIndex(const PointLocation& location) const {
  const auto found = sets_.find(location.set);
  if (found == sets_.end() || location.index >= found->second.pointCount) return std::nullopt;
  if (options_.storage == PointStorage::Unsorted) return location.index;
  const std::vector<uint32_t>& order = found->second.sourceOrder;
  if (order.empty()) return std::nullopt;
  return order[location.index];
}

void Renderer::indexSourceOrder(SetRecord& record) {
  const uint64_t count = record.sourceOrder.size();
  if (count == 0) return;
  requireHostMemory("the index of a point set's source order", count, sizeof(uint32_t));
  record.storedIndexOf.resize(count);
  // Every entry is written once (the order is a permutation), so none is zeroed first.
  parallelFor(count, [&](uint64_t begin, uint64_t end) {
    for (uint64_t i = begin; i < end; ++i)
      record.storedIndexOf[record.sourceOrder[i]] = uint32_t(i);
  });
}

uint64_t Renderer::batchSlotOf(const SetRecord& record, uint64_t index) const {
  const uint64_t slice = slicePoints();
  return record.batchFirst + index / slice * batchesForPoints(slice) + index % slice / kBatchSize;
}

bool Renderer::drawsColorless() const {
  return std::any_of(sets_.begin(), sets_.end(),
                     [](const auto& entry) { return !entry.second.hasColor; });
}

DrawList Renderer::filterableList(DrawList list, SetSelection selection,
                                  const PointFilter& filter) const {
  if (!filter.active()) return list;
  const uint32_t needed = filterFieldsRead(filter);
  const std::string ranged = filter.ranges.empty() ? std::string() : filter.ranges[0].attribute;
  auto filterable = [&](const SetRecord& record) {
    return (record.filterFields & needed) == needed &&
           (ranged.empty() || record.rangeAttribute == ranged);
  };
  const std::vector<PointSetId> chosen =
      selection.everything()
          ? order_
          : std::vector<PointSetId>(selection.sets().begin(), selection.sets().end());
  // When the filter can test every set drawn, the list stays as it is: a frame of every set then
  // keeps drawing batch slots [0, n) with no list of slots to build and upload (at 1 B points
  // that list is 100 k slots, every frame), and the batch summaries alone decide what is drawn.
  const bool allFilterable = std::all_of(chosen.begin(), chosen.end(), [&](PointSetId id) {
    const auto found = sets_.find(id);
    return found == sets_.end() || filterable(found->second);
  });
  if (allFilterable) return list;
  DrawList kept{.everything = false};
  for (PointSetId id : chosen) {
    const auto found = sets_.find(id);
    if (found == sets_.end() || !filterable(found->second)) continue;
    const SetRecord& record = found->second;
    for (uint64_t b = 0; b < record.batchCount; ++b) {
      kept.batches.push_back(uint32_t(record.batchFirst + b));
    }
    kept.pointRanges.push_back({record.pointFirst, record.pointCount});
  }
  return kept;
}

FilterData filterDataOf(std::span<const ScalarAttribute> attributes,
                        std::string_view rangeAttribute) {
  FilterData data;
  for (const ScalarAttribute& attribute : attributes) {
    const std::span<const float> values(attribute.values.data(), attribute.values.size());
    if (attribute.name == "classification") data.classification = values;
    if (attribute.name == "return_number") data.returnNumber = values;
    if (attribute.name == "number_of_returns") data.numberOfReturns = values;
    if (!rangeAttribute.empty() && attribute.name == rangeAttribute) {
      data.rangeAttribute = attribute.name;
      if (attribute.wide()) {
        data.wideRangeValues = {attribute.wideValues.data(), attribute.wideValues.size()};
      } else {
        data.rangeValues = values;
      }
    }
  }
  return data;
}

void Renderer::setFilterData(PointSetId set, const FilterData& data) {
  const auto found = sets_.find(set);
  if (found == sets_.end()) throw InputError("setFilterData: no set " + std::to_string(set));
  const uint64_t count = found->second.pointCount;
  for (const uint64_t size : {data.classification.size(), data.returnNumber.size(),
                              data.numberOfReturns.size(), data.rangeValueCount()}) {
    if (size != 0 && size != count) {
      throw InputError("setFilterData: " + std::to_string(size) + " values for a set of " +
                       std::to_string(count) + " points");
    }
  }
  storeFilterData(
      set, [&](uint64_t i) { return filterFieldsAt(data, i); }, filterFieldBits(data),
      data.rangeAttribute, data.hasRangeValues());
}

void Renderer::setColors(PointSetId set, std::span<const uint32_t> colors) {
  const auto found = sets_.find(set);
  if (found == sets_.end()) throw InputError("setColors: no set " + std::to_string(set));
  const SetRecord& record = found->second;
  const uint64_t count = record.pointCount;
  if (colors.size() != count) {
    throw InputError("setColors: " + std::to_string(colors.size()) + " colours for a set of " +
                     std::to_string(count) + " points");
  }
  const bool keepsGivenOrder = options_.storage == PointStorage::Unsorted;
  if (!keepsGivenOrder && record.sourceOrder.size() != count) {
    throw InputError(
        "setColors: the set must keep its source order (PointSetOptions::keepSourceOrder) to "
        "place its points' colours");
  }
  if (keepsGivenOrder) {
    backend_->storeColors({record.pointFirst, count}, colors.data());
    return;
  }
  requireHostMemory("the colours of a point set", count, 4);
  std::vector<uint32_t> stored(count);
  // Stored point i is source point sourceOrder[i].
  const std::vector<uint32_t>& order = record.sourceOrder;
  parallelFor(count, [&](uint64_t begin, uint64_t end) {
    for (uint64_t i = begin; i < end; ++i) stored[i] = colors[order[i]];
  });
  backend_->storeColors({record.pointFirst, count}, stored.data());
}

bool Renderer::changeClasses(PointSetId set, std::span<const uint64_t> sourceIndices,
                             std::span<const uint32_t> colors, std::span<const float> classes) {
  const auto found = sets_.find(set);
  if (found == sets_.end()) throw InputError("changeClasses: no set " + std::to_string(set));
  SetRecord& record = found->second;
  const uint64_t count = record.pointCount;
  if (colors.size() != sourceIndices.size() ||
      (!classes.empty() && classes.size() != sourceIndices.size())) {
    throw InputError("changeClasses: " + std::to_string(sourceIndices.size()) + " points, " +
                     std::to_string(colors.size()) + " colours and " +
                     std::to_string(classes.size()) + " classes");
  }
  const bool keepsGivenOrder = options_.storage == PointStorage::Unsorted;
  if (!keepsGivenOrder && record.sourceOrder.size() != count) {
    throw InputError(
        "changeClasses: the set must keep its source order (PointSetOptions::keepSourceOrder) "
        "to place its points' changes");
  }
  const uint64_t changed = sourceIndices.size();
  std::vector<uint32_t> pointSlots(changed), batchSlots(changed);
  std::atomic<bool> outside{false};
  parallelFor(changed, [&](uint64_t begin, uint64_t end) {
    for (uint64_t i = begin; i < end; ++i) {
      if (sourceIndices[i] >= count) {
        outside = true;
        continue;
      }
      const uint64_t stored =
          keepsGivenOrder ? sourceIndices[i] : record.storedIndexOf[sourceIndices[i]];
      pointSlots[i] = uint32_t(record.pointFirst + stored);
      batchSlots[i] = keepsGivenOrder ? 0u : uint32_t(batchSlotOf(record, stored));
    }
  });
  if (outside) {
    throw InputError("changeClasses: a point index past the set's " + std::to_string(count) +
                     " points");
  }
  // Classes reach the filter words of sets that hold classes there; the others keep none.
  const bool withClasses = !classes.empty() && (record.filterFields & 1u) != 0;
  std::vector<uint8_t> classBytes(withClasses ? changed : 0);
  for (size_t i = 0; i < classBytes.size(); ++i) {
    classBytes[i] = filterFieldValue(classes[i], 255.0f);
  }
  return backend_->storeClassChanges({.pointSlots = pointSlots,
                                      .batchSlots = batchSlots,
                                      .colors = colors.data(),
                                      .classes = withClasses ? classBytes.data() : nullptr,
                                      .batches = {record.batchFirst, record.batchCount}});
}

void Renderer::setFilterData(PointSetId set, const std::function<FilterFields(uint64_t)>& fieldsOf,
                             const std::string& rangeAttribute) {
  storeFilterData(set, fieldsOf, 7u, rangeAttribute, !rangeAttribute.empty());
}

void Renderer::storeFilterData(PointSetId set,
                               const std::function<FilterFields(uint64_t)>& fieldsOf,
                               uint32_t fields, const std::string& rangeAttribute,
                               bool withValues) {
  const auto found = sets_.find(set);
  if (found == sets_.end()) throw InputError("setFilterData: no set " + std::to_string(set));
  SetRecord& record = found->second;
  const uint64_t count = record.pointCount;
  if (options_.storage == PointStorage::Unsorted || record.sourceOrder.size() != count) {
    throw InputError(
        "setFilterData: filters draw from the compact layout, and the set must keep its source "
        "order (PointSetOptions::keepSourceOrder) to place its points' values");
  }
  requireHostMemory("the filter data of a point set", count, withValues ? 6 : 2);
  std::vector<uint16_t> words(count);
  std::vector<float> values(withValues ? count : 0);
  // Stored point i is source point sourceOrder[i].
  const std::vector<uint32_t>& order = record.sourceOrder;
  parallelFor(count, [&](uint64_t begin, uint64_t end) {
    for (uint64_t i = begin; i < end; ++i) {
      const FilterFields f = fieldsOf(order[i]);
      words[i] = packFilterWord(f.classification, f.returnNumber, f.numberOfReturns);
      if (withValues) values[i] = f.rangeValue;
    }
  });
  backend_->storeFilterData({record.pointFirst, count}, {record.batchFirst, record.batchCount},
                            words.data(), withValues ? values.data() : nullptr);
  record.filterFields = fields;
  record.rangeAttribute = withValues ? rangeAttribute : std::string();
}

std::string Renderer::rangeAttributeOf(PointSetId set) const {
  const auto found = sets_.find(set);
  return found == sets_.end() ? std::string() : found->second.rangeAttribute;
}

DrawList Renderer::drawListFor(SetSelection selection, bool& colorless) const {
  if (selection.everything()) {
    colorless = drawsColorless();
    return DrawList{.everything = true,
                    .batchSlots = pool_->batches.usedEnd(),
                    .pointSlots = pool_->points.usedEnd()};
  }
  DrawList list{.everything = false};
  colorless = false;
  for (PointSetId id : selection.sets()) {
    const auto found = sets_.find(id);
    if (found == sets_.end()) continue;
    const SetRecord& record = found->second;
    colorless = colorless || !record.hasColor;
    for (uint64_t b = 0; b < record.batchCount; ++b) {
      list.batches.push_back(uint32_t(record.batchFirst + b));
    }
    list.pointRanges.push_back({record.pointFirst, record.pointCount});
  }
  return list;
}

void Renderer::render(const ViewTransform& view, const RenderSettings& settings,
                      const RenderTarget& target) {
  render(SetSelection::everySet(), view, settings, target);
}

void Renderer::render(std::span<const PointSetId> sets, const ViewTransform& view,
                      const RenderSettings& settings, const RenderTarget& target) {
  render(SetSelection::only(sets), view, settings, target);
}

void Renderer::render(SetSelection selection, const ViewTransform& view,
                      const RenderSettings& settings, const RenderTarget& target) {
  bool colorless = false;
  const DrawList list =
      filterableList(drawListFor(selection, colorless), selection, settings.filter);
  draw(list, colorless, view, settings, target);
}

FrameDraw Renderer::prepareFrame(const DrawList& list, bool drawsColorless,
                                 const ViewTransform& view, const RenderSettings& requested,
                                 RenderSettings& settings) const {
  settings = requested;
  settings.quality = withEdlDecided(requested.quality, drawsColorless);
  FrameDraw frame{.pipeline = pipelineFor(methodFor(settings)),
                  .view = view,
                  .settings = &settings,
                  .list = &list};
  if (needsQualityPipeline(settings.quality)) {
    if (options_.storage == PointStorage::Unsorted) {
      throw InputError(
          "point size, hole filling, eye-dome lighting, high quality and gradient "
          "backgrounds draw from the compact layout, which needs Morton order");
    }
    validateQualitySettings(settings.quality);
    frame.pipeline = DrawPipeline::Quality;
  }
  if (settings.clip.active()) {
    validateClipSettings(settings.clip);
    if (frame.pipeline != DrawPipeline::Compact && frame.pipeline != DrawPipeline::Quality) {
      throw InputError(std::string("clipping draws from the compact layout; method '") +
                       methodName(methodFor(settings)) +
                       "' draws the 16-byte points (use the compact method)");
    }
    frame.clip = makeClipFrame(settings.clip, view.origin);
  }
  if (settings.filter.active()) {
    if (frame.pipeline != DrawPipeline::Compact && frame.pipeline != DrawPipeline::Quality) {
      throw InputError(std::string("filters draw from the compact layout; method '") +
                       methodName(methodFor(settings)) +
                       "' draws the 16-byte points (use the compact method)");
    }
    frame.filter = makeFilterFrame(settings.filter);
  }
  return frame;
}

void Renderer::draw(const DrawList& list, bool drawsColorless, const ViewTransform& view,
                    const RenderSettings& requested, const RenderTarget& target) {
  if (target.topRowFirst && target.memory == MemorySpace::CudaSurface) {
    throw InputError(
        "a CUDA surface target is a GL texture, bottom row first: top-row-first "
        "order applies to host and device targets");
  }
  RenderSettings settings;
  FrameDraw frame = prepareFrame(list, drawsColorless, view, requested, settings);
  frame.target = target;
  backend_->draw(frame);
}

std::optional<PickedPoint> Renderer::pick(const ViewTransform& view,
                                          const RenderSettings& requested, int xPx, int yPx,
                                          int radiusPx) {
  return pick(SetSelection::everySet(), view, requested, xPx, yPx, radiusPx);
}

std::optional<PickedPoint> Renderer::pick(SetSelection selection, const ViewTransform& view,
                                          const RenderSettings& requested, int xPx, int yPx,
                                          int radiusPx) {
  if (options_.storage == PointStorage::Unsorted) {
    throw UnavailableError(
        "picking reads the compact layout's depth pass; this renderer keeps unsorted points only");
  }
  const PixelRect rect{
      .x = std::max(xPx - radiusPx, 0),
      .y = std::max(yPx - radiusPx, 0),
      .width = std::min(xPx + radiusPx + 1, view.width) - std::max(xPx - radiusPx, 0),
      .height = std::min(yPx + radiusPx + 1, view.height) - std::max(yPx - radiusPx, 0)};
  if (rect.width <= 0 || rect.height <= 0 || sets_.empty()) return std::nullopt;
  bool colorless = false;
  const DrawList list =
      filterableList(drawListFor(selection, colorless), selection, requested.filter);
  RenderSettings settings;
  FrameDraw frame = prepareFrame(list, colorless, view, requested, settings);
  // The 16-byte methods draw the same points as the compact layout; its depth pass names them.
  if (frame.pipeline != DrawPipeline::Quality) frame.pipeline = DrawPipeline::Compact;
  frame.target = {.width = view.width, .height = view.height};
  const std::vector<uint64_t> words = backend_->pickWords(frame, rect);
  // The pixel nearest to the one asked for; among equally near ones the closest point.
  uint64_t best = kEmptyPixel, bestDistance = ~0ull;
  int bestX = 0, bestY = 0;
  for (int row = 0; row < rect.height; ++row) {
    for (int column = 0; column < rect.width; ++column) {
      const uint64_t word = words[uint64_t(row) * rect.width + column];
      if (word == kEmptyPixel) continue;
      const int x = rect.x + column, y = rect.y + row;
      const uint64_t distance = uint64_t((x - xPx) * (x - xPx) + (y - yPx) * (y - yPx));
      if (distance < bestDistance || (distance == bestDistance && word < best)) {
        best = word;
        bestDistance = distance;
        bestX = x;
        bestY = y;
      }
    }
  }
  if (best == kEmptyPixel) return std::nullopt;
  const std::optional<PointLocation> location = locate(payloadOfWord(best));
  if (!location) return std::nullopt;
  const SetRecord& record = sets_.at(location->set);
  const StoredPoint stored =
      backend_->storedPoint(payloadOfWord(best), batchSlotOf(record, location->index));
  PickedPoint picked{.location = *location,
                     .sourceIndex = sourceIndex(*location),
                     .viewDepth = depthOfWord(best),
                     .pixelX = bestX,
                     .pixelY = bestY};
  if (stored.hasPoint) {
    picked.position[0] = stored.point.x;
    picked.position[1] = stored.point.y;
    picked.position[2] = stored.point.z;
  } else {
    for (int axis = 0; axis < 3; ++axis) {
      const uint32_t steps = (stored.position >> (10 * axis)) & 1023u;
      picked.position[axis] = stored.batch.min[axis] + float(steps) * stored.batch.step[axis];
    }
  }
  return picked;
}

StageTimings Renderer::lastTimings() {
  return backend_->lastTimings();
}

StageTimings Renderer::lastReadbackTimings() {
  return backend_->lastReadbackTimings();
}

void* Renderer::cudaStream() const {
  return backend_->cudaStream();
}

std::vector<std::string> builtBackends() {
  std::vector<std::string> backends;
#if PCV_WITH_CUDA
  backends.push_back("cuda");
#endif
#if PCV_WITH_VULKAN
  backends.push_back("vulkan");
#endif
  backends.push_back("cpu");
  return backends;
}

bool cudaAvailable(std::string* reason) {
#if PCV_WITH_CUDA
  return cudaDeviceUsable(reason);
#else
  if (reason) *reason = "pcv was built without CUDA";
  return false;
#endif
}

std::unique_ptr<Renderer> createRenderer(std::string_view name, const RendererOptions& options) {
  const BackendChoice backend = parseBackend(name);
  if (backend == BackendChoice::Cpu) {
    return std::make_unique<Renderer>(createCpuBackend(options.storage), options);
  }
  if (backend == BackendChoice::Vulkan) {
#if PCV_WITH_VULKAN
    return std::make_unique<Renderer>(
        createVulkanBackend(options.storage, options.vulkanDevice, true), options);
#else
    throw UnavailableError("cannot use the vulkan backend: pcv was built without Vulkan");
#endif
  }
  std::string reason;
  if (cudaAvailable(&reason)) {
#if PCV_WITH_CUDA
    return std::make_unique<Renderer>(createCudaBackend(options.storage), options);
#endif
  }
  if (backend == BackendChoice::Auto) {
#if PCV_WITH_VULKAN
    // A GPU without CUDA draws through Vulkan; where none can (no loader or driver, no 64-bit
    // atomics, only a software device, unsorted storage) the CPU backend, which always can.
    try {
      return std::make_unique<Renderer>(
          createVulkanBackend(options.storage, options.vulkanDevice, false), options);
    } catch (const Error&) {
    }
#endif
    return std::make_unique<Renderer>(createCpuBackend(options.storage), options);
  }
  throw UnavailableError("cannot use the cuda backend: " + reason);
}

}  // namespace pcv
