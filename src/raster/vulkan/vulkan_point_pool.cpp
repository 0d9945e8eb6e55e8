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

uint64_t filterWordBytes(uint64_t points) {
  return (points * 2 + 3) / 4 * 4;  // two words per uint: the shaders read whole uints
}

}  // namespace

VulkanPointPool::VulkanPointPool(VulkanContext& context, bool keepsPoints)
    : context_(context), transfer_(context), keepsPoints_(keepsPoints) {}

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
  if (wanted > free) {
    throw OutOfMemoryError("not enough Vulkan device memory for the points of the resident sets: " +
                           std::to_string(newPoints) + " points x " + std::to_string(perPoint) +
                           " bytes and " + std::to_string(newBatches) + " batches x " +
                           std::to_string(perBatch) + " bytes; " + std::to_string(free) +
                           " bytes free on " + context_.info().name);
  }
  if (points > pointSlots_) {
    grow(positions_, points * 4, std::nullopt, "the compact positions");
    grow(colors_, points * 4, std::nullopt, "the compact colours");
    if (keepsPoints_) grow(points_, points * sizeof(Point), kEmptyPointWord, "the points");
    if (filterWords_) grow(filterWords_, filterWordBytes(points), 0u, "the filter words");
    if (rangeValues_) grow(rangeValues_, points * 4, 0u, "the range values");
    pointSlots_ = points;
  }
  if (batches > batchSlots_) {
    // Free batch slots hold no points (count 0): drawing them costs little and draws nothing.
    grow(batches_, batches * sizeof(Batch), 0u, "the point batches");
    if (summaries_) grow(summaries_, batches * sizeof(BatchSummary), 0u, "the batch summaries");
    hostBatches_.resize(batches, Batch{});
    batchSlots_ = batches;
  }
}

void VulkanPointPool::free() {
  positions_ = {};
  colors_ = {};
  batches_ = {};
  points_ = {};
  filterWords_ = {};
  rangeValues_ = {};
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
    transfer_.upload(points_, pointFirst * sizeof(Point), layout.points.data(),
                     layout.points.size() * sizeof(Point));
  }
  transfer_.upload(positions_, pointFirst * 4, layout.positions.data(),
                   layout.positions.size() * 4);
  transfer_.upload(colors_, pointFirst * 4, layout.colors.data(), layout.colors.size() * 4);
  std::vector<Batch> batches(layout.batches.begin(), layout.batches.end());
  for (Batch& batch : batches) batch.first += uint32_t(pointFirst);  // laid out from slot 0
  std::copy(batches.begin(), batches.end(), hostBatches_.begin() + batchFirst);
  transfer_.upload(batches_, batchFirst * sizeof(Batch), batches.data(),
                   batches.size() * sizeof(Batch));
}

void VulkanPointPool::growFilterArrays(bool withValues) {
  if (!filterWords_) grow(filterWords_, filterWordBytes(pointSlots_), 0u, "the filter words");
  if (!summaries_) grow(summaries_, batchSlots_ * sizeof(BatchSummary), 0u, "the batch summaries");
  if (withValues && !rangeValues_) grow(rangeValues_, pointSlots_ * 4, 0u, "the range values");
}

void VulkanPointPool::storeFilterData(PointRange points, PointRange batches,
                                      const uint16_t* words, const float* values) {
  std::vector<BatchSummary> summaries(batches.count);
  for (uint64_t b = 0; b < batches.count; ++b) {
    const Batch& batch = hostBatches_[batches.first + b];
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
  transfer_.upload(filterWords_, points.first * 2, words, points.count * 2);
  if (values) transfer_.upload(rangeValues_, points.first * 4, values, points.count * 4);
  transfer_.upload(summaries_, batches.first * sizeof(BatchSummary), summaries,
                   batches.count * sizeof(BatchSummary));
}

void VulkanPointPool::release(PointRange points, PointRange batches) {
  std::fill_n(hostBatches_.begin() + batches.first, batches.count, Batch{});
  context_.run([&](VkCommandBuffer commands) {
    if (batches.count > 0)
      vkCmdFillBuffer(commands, batches_.handle(), batches.first * sizeof(Batch),
                      batches.count * sizeof(Batch), 0u);
    if (keepsPoints_ && points.count > 0)
      vkCmdFillBuffer(commands, points_.handle(), points.first * sizeof(Point),
                      points.count * sizeof(Point), kEmptyPointWord);
  });
}

std::vector<Point> VulkanPointPool::downloadPoints(PointRange points) {
  if (!keepsPoints_) return {};
  std::vector<Point> out(points.count);
  transfer_.download(points_, points.first * sizeof(Point), out.data(), out.size() * sizeof(Point));
  return out;
}

StoredPoint VulkanPointPool::storedPoint(uint64_t pointSlot, uint64_t batchSlot) {
  StoredPoint stored;
  if (keepsPoints_) {
    stored.hasPoint = true;
    transfer_.download(points_, pointSlot * sizeof(Point), &stored.point, sizeof(Point));
  }
  transfer_.download(positions_, pointSlot * 4, &stored.position, 4);
  stored.batch = hostBatches_[batchSlot];
  return stored;
}

}  // namespace pcv::vk
