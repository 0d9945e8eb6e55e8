/// @brief The CPU backend's point pool and the layout of a slice of points into it: Morton
/// order and the compact layout (src/raster/shared/compact_points.hpp), the twins of the CUDA
/// steps, bit for bit.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "pcv/core/point.hpp"
#include "pcv/core/point_producer.hpp"
#include "pcv/core/uninitialized_vector.hpp"
#include "shared/compact_points.hpp"
#include "shared/morton.hpp"
#include "shared/point_filter_frame.hpp"

namespace pcv {

/// The slots every set of the CPU backend lives in; a point's slot index is its framebuffer
/// payload.
struct HostPointPool {
  // Left unwritten when the pool grows (free slots are never read: free batch slots hold no
  // points), so reserving a stream's pool of hundreds of MiB touches no page until a set lands.
  UninitializedVector<uint32_t> positions;  ///< quantized position words (compact layout)
  UninitializedVector<uint32_t> colors;     ///< RGBA8 (compact layout)
  std::vector<Batch> batches;       ///< batch slots; free ones hold no points
  std::vector<Point> points;        ///< the 16-byte points, when the storage keeps them
  // Filter data: empty until a set stores some (Renderer::setFilterData), then pool-sized.
  std::vector<uint16_t> filterWords;     ///< packFilterWord per point slot
  std::vector<float> rangeValues;        ///< a range attribute's value per point slot
  std::vector<BatchSummary> summaries;   ///< per batch slot

  FilterArrays filterArrays() const {
    return {summaries.empty() ? nullptr : summaries.data(),
            filterWords.empty() ? nullptr : filterWords.data(),
            rangeValues.empty() ? nullptr : rangeValues.data()};
  }
};

/// Points [first, first + count) of `source` in host memory: a view of its host points, or
/// produced into `scratch` for a generator.
std::span<const Point> hostSlice(const PointProducer& source, uint64_t first, uint64_t count,
                                 std::vector<Point>& scratch);

/// mortonCode of a point as the host computes it (each axis's cell spread by byte tables): the
/// same code as the GPU's.
uint64_t hostMortonCode(const MortonGrid& grid, const Point& p);

/// Writes to `order` (as long as `points`) the permutation that orders points by the Morton code
/// of their position in the finite points' bounds; equal codes keep their order (a stable sort,
/// like the GPU's radix sort). Sorts on all cores, holding 20 bytes a point besides `order`.
void mortonOrder(std::span<const Point> points, std::span<uint32_t> order);

/// The same permutation, returned.
std::vector<uint32_t> mortonOrder(std::span<const Point> points);

/// Builds the compact layout of `sorted` (points in Morton order) into the pool: positions and
/// colours at slots [pointFirst, pointFirst + size), batches at slots from batchFirst on.
void buildCompactPoints(std::span<const Point> sorted, HostPointPool& pool, uint64_t pointFirst,
                        uint64_t batchFirst);

/// Lays out one slice of points into `pool` (sized for it) at point slots from pointFirst and
/// batch slots from batchFirst: with `sorted`, Morton order and the compact layout, the sorted
/// 16-byte points too with `keepPoints`, and order[i] (when `order` is not null) the slice index
/// of the point stored at slot pointFirst + i; without, the 16-byte points as given. The CPU
/// backend's layout, and the one sets laid out ahead of time (laid_out_set.hpp) get. Runs on all
/// cores; the slice's position and colour slots serve the sort as scratch before they are filled.
void layOutSlice(std::span<const Point> slice, HostPointPool& pool, uint64_t pointFirst,
                 uint64_t batchFirst, bool sorted, bool keepPoints, uint32_t* order);

}  // namespace pcv
