#include "vulkan_point_pool.hpp"

#include <algorithm>
#include <string>

#include "../cpu/point_layout.hpp"
#include "pcv/core/error.hpp"
#include "vulkan_context.hpp"

namespace pcv::vk {
namespace {

/// A quiet NaN in every word: a free slot's 16-byte point is never drawn.
constexpr uint32_t kEmptyPointWord = 0x7fc00000u;

/// log2 of the points per slice: `asked`, or the most whose 16-byte points fit one allocation.
uint32_t sliceShiftFor(const VulkanContext& context, uint64_t asked) {
  uint64_t points = asked;
  if (points == 0) {
    points = uint64_t(1) << 28;
    while (points > 2 && points * sizeof(Point) > context.maxAllocationBytes()) points /= 2;
  }
  uint32_t shift = 1;
  while ((uint64_t(1) << (shift + 1)) <= points) ++shift;
  return shift;
}

}  // namespace

VulkanPointPool::VulkanPointPool(VulkanContext& context, bool keepsPoints, uint64_t slicePoints)
    : context_(context),
      transfer_(context),
      keepsPoints_(keepsPoints),
      sliceShift_(sliceShiftFor(context, slicePoints)),
      positions_(context, 4, uint64_t(1) << sliceShift_, "the compact positions"),
      colors_(context, 4, uint64_t(1) << sliceShift_, "the compact colours"),
      points_(context, sizeof(Point), uint64_t(1) << sliceShift_, "the points"),
      filterWords_(context, 2, uint64_t(1) << sliceShift_, "the filter words"),
      rangeValues_(context, 4, uint64_t(1) << sliceShift_, "the range values") {}

void VulkanPointPool::grow(VulkanBuffer& buffer, uint64_t bytes, std::optional<uint32_t> fill,
                           const char* what) {
  if (bytes <= buffer.bytes()) return;
  VulkanBuffer bigger(context_, bytes, VulkanBuffer::Kind::Device, what);
  const uint64_t old = buffer.bytes();
  context_.run([&](VkCommandBuffer commands) {
    if (old > 0) {
      const VkBufferCopy region{.srcOffset = 0, .dstOffset = 0, .size = old};
      vkCmdCopyBuffer(commands, buffer.handle(), bigger.handle(), 1, &region);
    }
    if (fill) vkCmdFillBuffer(commands, bigger.handle(), old, bytes - old, *fill);
  });
  buffer = std::move(bigger);
}

void VulkanPointPool::reserve(uint64_t points, uint64_t batches) {
  const uint64_t newPoints = points > pointSlots_ ? points - pointSlots_ : 0;
  const uint64_t newBatches = batches > batchSlots_ ? batches - batchSlots_ : 0;
  if (newPoints == 0 && newBatches == 0) return;
  // Checked as a whole first, so a pool that cannot fit fails before anything is allocated.
  const uint64_t perPoint = 8 + (keepsPoints_ ? sizeof(Point) : 0) + (filterWords_ ? 2 : 0) +
                            (rangeValues_ ? 4 : 0);
  const uint64_t perBatch = sizeof(Batch) + (summaries_ ? sizeof(BatchSummary) : 0);
  const uint64_t wanted = newPoints * perPoint + newBatches * perBatch;
  const uint64_t free = context_.freeDeviceMemory();
  const uint64_t sliceable = uint64_t(kMaxPoolSlices) << sliceShift_;
  if (points > sliceable) {
    throw OutOfMemoryError("the Vulkan pool holds at most " + std::to_string(sliceable) +
                           " points on " + context_.info().name + " (" +
                           std::to_string(kMaxPoolSlices) + " slices of " +
                           std::to_string(uint64_t(1) << sliceShift_) + "); " +
                           std::to_string(points) + " asked for");
  }
  if (wanted > free) {
    throw OutOfMemoryError("not enough Vulkan device memory for the points of the resident sets: " +
                           std::to_string(newPoints) + " points x " + std::to_string(perPoint) +
                           " bytes and " + std::to_string(newBatches) + " batches x " +
                           std::to_string(perBatch) + " bytes; " + std::to_string(free) +
                           " bytes free on " + context_.info().name);
  }
  if (points > pointSlots_) {
    positions_.grow(points, std::nullopt);
    colors_.grow(points, std::nullopt);
    if (keepsPoints_) points_.grow(points, kEmptyPointWord);
    if (filterWords_) filterWords_.grow(points, 0u);
    if (rangeValues_) rangeValues_.grow(points, 0u);
    pointSlots_ = points;
  }
  if (batches > batchSlots_) {
    // Free batch slots hold no points (count 0): drawing them costs little and draws nothing.
    grow(batches_, batches * sizeof(Batch), 0u, "the point batches");
    if (summaries_) grow(summaries_, batches * sizeof(BatchSummary), 0u, "the batch summaries");
    batchSlots_ = batches;  // hostBatches_ grows as batches are stored
  }
}

void VulkanPointPool::free() {
  positions_.free();
  colors_.free();
  points_.free();
  filterWords_.free();
  rangeValues_.free();
  batches_ = {};
  summaries_ = {};
  hostBatches_ = {};
  pointSlots_ = batchSlots_ = 0;
  transfer_.release();
}

uint64_t VulkanPointPool::bytes() const {
  return positions_.bytes() + colors_.bytes() + batches_.bytes() + points_.bytes() +
         filterWords_.bytes() + rangeValues_.bytes() + summaries_.bytes();
}

void VulkanPointPool::store(const HostPointPool& layout, uint64_t pointFirst,
                            uint64_t batchFirst) {
  if (keepsPoints_ && !layout.points.empty()) {
    points_.upload(transfer_, pointFirst, layout.points.data(), layout.points.size());
  }
  positions_.upload(transfer_, pointFirst, layout.positions.data(), layout.positions.size());
  colors_.upload(transfer_, pointFirst, layout.colors.data(), layout.colors.size());
  std::vector<Batch> batches(layout.batches.begin(), layout.batches.end());
  for (Batch& batch : batches) batch.first += uint32_t(pointFirst);  // laid out from slot 0
  // The host copy covers the slots stored so far: a stream reserves millions of batch slots
  // (tens of megabytes, zeroed page by page) and fills them as nodes come.
  if (hostBatches_.size() < batchFirst + batches.size()) {
    hostBatches_.resize(batchFirst + batches.size(), Batch{});
  }
  std::copy(batches.begin(), batches.end(), hostBatches_.begin() + batchFirst);
  transfer_.upload(batches_, batchFirst * sizeof(Batch), batches.data(),
                   batches.size() * sizeof(Batch));
  allocateAlongPositions();
}

Batch VulkanPointPool::storedBatch(uint64_t slot) const {
  return slot < hostBatches_.size() ? hostBatches_[slot] : Batch{};  // past them: free slots
}

void VulkanPointPool::allocateAlongPositions() {
  for (SlicedArray* array : {&colors_, &points_, &filterWords_, &rangeValues_}) {
    if (*array) array->allocateLike(positions_);
  }
}

void VulkanPointPool::growFilterArrays(bool withValues) {
  if (!filterWords_) filterWords_.grow(pointSlots_, 0u);
  if (!summaries_) grow(summaries_, batchSlots_ * sizeof(BatchSummary), 0u, "the batch summaries");
  if (withValues && !rangeValues_) rangeValues_.grow(pointSlots_, 0u);
  allocateAlongPositions();  // zeros for the points stored before
}

void VulkanPointPool::storeFilterData(PointRange points, PointRange batches,
                                      const uint16_t* words, const float* values) {
  std::vector<BatchSummary> summaries(batches.count);
  for (uint64_t b = 0; b < batches.count; ++b) {
    const Batch batch = storedBatch(batches.first + b);
    const uint64_t offset = batch.first - points.first;
    summaries[b] = summarizeBatch(words + offset, values ? values + offset : nullptr, batch.count);
  }
  storeFilterData(points, batches, words, values, summaries.data());
}

void VulkanPointPool::storeFilterData(PointRange points, PointRange batches,
                                      const uint16_t* words, const float* values,
                                      const BatchSummary* summaries) {
  growFilterArrays(values != nullptr);
  // The words' halves of a uint are two points: a set starting at an odd slot shares its first
  // uint with the set before, so the words go in by bytes, which copies allow anywhere.
  filterWords_.upload(transfer_, points.first, words, points.count);
  if (values) rangeValues_.upload(transfer_, points.first, values, points.count);
  transfer_.upload(summaries_, batches.first * sizeof(BatchSummary), summaries,
                   batches.count * sizeof(BatchSummary));
}

void VulkanPointPool::release(PointRange points, PointRange batches) {
  if (batches.first < hostBatches_.size()) {
    std::fill_n(hostBatches_.begin() + batches.first,
                std::min<uint64_t>(batches.count, hostBatches_.size() - batches.first), Batch{});
  }
  context_.run([&](VkCommandBuffer commands) {
    if (batches.count > 0)
      vkCmdFillBuffer(commands, batches_.handle(), batches.first * sizeof(Batch),
                      batches.count * sizeof(Batch), 0u);
    if (keepsPoints_ && points.count > 0)
      points_.recordFill(commands, points.first, points.count, kEmptyPointWord);
  });
}

void VulkanPointPool::storeColors(PointRange points, const uint32_t* colors) {
  if (points.count == 0) return;
  colors_.upload(transfer_, points.first, colors, points.count);
  if (!keepsPoints_) return;
  std::vector<Point> stored = downloadPoints(points);
  for (uint64_t i = 0; i < points.count; ++i) stored[i].rgba = colors[i];
  points_.upload(transfer_, points.first, stored.data(), stored.size());
}

std::vector<Point> VulkanPointPool::downloadPoints(PointRange points) {
  if (!keepsPoints_) return {};
  std::vector<Point> out(points.count);
  points_.download(transfer_, points.first, out.data(), out.size());
  return out;
}

StoredPoint VulkanPointPool::storedPoint(uint64_t pointSlot, uint64_t batchSlot) {
  StoredPoint stored;
  if (keepsPoints_) {
    stored.hasPoint = true;
    points_.download(transfer_, pointSlot, &stored.point, 1);
  }
  positions_.download(transfer_, pointSlot, &stored.position, 1);
  stored.batch = storedBatch(batchSlot);
  return stored;
}

}  // namespace pcv::vk
