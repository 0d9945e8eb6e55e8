/// @brief What a set laid out ahead of time holds (laid_out_set.hpp): the arrays a backend copies
/// into its pool slots, numbered from the set's first point; the backend adds the set's first
/// slot to each batch's first point.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cpu/point_layout.hpp"
#include "pcv/raster/laid_out_set.hpp"

namespace pcv {

struct LaidOutArrays {
  LayoutSpec spec;
  uint64_t count = 0;  ///< points
  /// The layout itself, as the CPU backend's pool holds it for a set at slot 0: positions and
  /// colours (sorted storage), the 16-byte points (where the storage keeps them), the batches.
  HostPointPool layout;
  std::vector<uint32_t> sourceOrder;  ///< stored index -> given index, when kept
  // Filter data in stored order (Renderer::setFilterData), when given.
  std::vector<uint16_t> filterWords;
  std::vector<float> rangeValues;
  std::vector<BatchSummary> summaries;  ///< per batch, of the words and values above
  uint32_t filterFields = 0;  ///< bits: 1 classes, 2 return numbers, 4 numbers of returns
  std::string rangeAttribute;
};

/// A field's value (a float as the readers hold it) as a filter word stores it: clamped to
/// [0, high] (255 for classes, 15 for returns), negative values and NaN 0.
uint8_t filterFieldValue(float value, float high);
/// The filter word fields of point i of `data`, clamped as the words store them.
FilterFields filterFieldsAt(const FilterData& data, uint64_t i);
/// The bits of the fields `data` carries (1 classes, 2 return numbers, 4 numbers of returns).
uint32_t filterFieldBits(const FilterData& data);

}  // namespace pcv
