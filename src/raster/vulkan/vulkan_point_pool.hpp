/// @brief The Vulkan backend's point pool: the compact layout's arrays (positions, colours,
/// batches), the 16-byte points where the storage keeps them, and the filter arrays once a set
/// stores filter data, all in device memory, the per-point ones in slices (sliced_array.hpp);
/// and a host copy of the batches (32 bytes per 10 240 points), which filter summaries and
/// picks read without a round trip.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "../raster_backend.hpp"
#include "sliced_array.hpp"
#include "vulkan_buffer.hpp"
#include "vulkan_transfer.hpp"

namespace pcv {
struct HostPointPool;
}

namespace pcv::vk {

/// Slices a per-point array may have: the frame parameters hold each slice's address.
constexpr uint32_t kMaxPoolSlices = 32;

class VulkanPointPool {
 public:
  /// `slicePoints`: points per slice, a power of two; 0 for the largest the device allows
  /// (at most 2^28: 1 GiB of positions, 4 GiB of 16-byte points).
  VulkanPointPool(VulkanContext& context, bool keepsPoints, uint64_t slicePoints = 0);

  /// Grows to `points` point slots and `batches` batch slots, keeping what it holds. Throws
  /// OutOfMemoryError with the sizes before anything changes when the device cannot hold them.
  void reserve(uint64_t points, uint64_t batches);
  void free();
  uint64_t bytes() const;

  /// Stores a laid-out slice (positions, colours, batches and points of `layout`, laid out from
  /// slot 0) at point slots from pointFirst and batch slots from batchFirst.
  void store(const HostPointPool& layout, uint64_t pointFirst, uint64_t batchFirst);
  /// Stores filter words, range values (or none) and the summaries of the set's batches.
  void storeFilterData(PointRange points, PointRange batches, const uint16_t* words,
                       const float* values);
  /// Stores filter data summarized already (a set laid out ahead of time).
  void storeFilterData(PointRange points, PointRange batches, const uint16_t* words,
                       const float* values, const BatchSummary* summaries);
  void release(PointRange points, PointRange batches);

  std::vector<Point> downloadPoints(PointRange points);
  /// RasterBackend::storeColors: the compact colours, and the 16-byte points' colour words
  /// (read back, changed and written: the transfer has no strided copy).
  void storeColors(PointRange points, const uint32_t* colors);
  StoredPoint storedPoint(uint64_t pointSlot, uint64_t batchSlot);

  bool keepsPoints() const { return keepsPoints_; }
  bool hasFilterWords() const { return bool(filterWords_); }
  bool hasRangeValues() const { return bool(rangeValues_); }
  /// log2 of the points per slice.
  uint32_t sliceShift() const { return sliceShift_; }
  const SlicedArray& positions() const { return positions_; }
  const SlicedArray& colors() const { return colors_; }
  const SlicedArray& points() const { return points_; }
  const SlicedArray& filterWords() const { return filterWords_; }
  const SlicedArray& rangeValues() const { return rangeValues_; }
  const VulkanBuffer& batches() const { return batches_; }
  const VulkanBuffer& summaries() const { return summaries_; }
  VulkanTransfer& transfer() { return transfer_; }

 private:
  void grow(VulkanBuffer& buffer, uint64_t bytes, std::optional<uint32_t> fill, const char* what);
  void growFilterArrays(bool withValues);
  /// Memory in every per-point array for the slices the positions have memory in
  /// (sliced_array.hpp).
  void allocateAlongPositions();
  /// The batch stored in `slot`, as the host copy has it (a free slot's: empty).
  Batch storedBatch(uint64_t slot) const;

  VulkanContext& context_;
  VulkanTransfer transfer_;
  bool keepsPoints_;
  uint32_t sliceShift_;
  uint64_t pointSlots_ = 0, batchSlots_ = 0;
  std::vector<Batch> hostBatches_;  ///< the batch slots up to the last stored one
  SlicedArray positions_, colors_, points_, filterWords_, rangeValues_;
  VulkanBuffer batches_, summaries_;
};

}  // namespace pcv::vk
