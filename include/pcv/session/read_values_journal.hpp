/// @brief The classes and withheld flags as read of the points edits have touched, kept so that
/// undo can give them back: only the points an edit reaches are kept (a bit per point says which
/// are), so the first edit of a billion points read costs what its selection holds, not a copy
/// of every point's values.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "pcv/core/point_cloud.hpp"
#include "pcv/core/uninitialized_vector.hpp"

namespace pcv {

class ReadValuesJournal {
 public:
  /// Keeps nothing, for a cloud of `points` points.
  void reset(uint64_t points);
  /// The cloud grew to `points` points; the new ones are untouched.
  void grow(uint64_t points);
  /// Keeps the values `classes` and `withheld` hold now for the points of `indices` not kept
  /// yet: call it before an edit changes them. Indices in any order, repeats allowed.
  void keep(std::span<const uint64_t> indices, const ScalarAttribute& classes,
            const ScalarAttribute& withheld);
  /// Writes the values kept back into `classes` and `withheld`.
  void restore(ScalarAttribute& classes, ScalarAttribute& withheld) const;
  /// Points kept.
  uint64_t size() const { return indices_.size(); }
  /// Keeps nothing, for no points.
  void clear() { reset(0); }

 private:
  UninitializedVector<uint64_t> touched_;  ///< bit i % 64 of word i / 64: point i is kept
  uint64_t points_ = 0;
  std::vector<uint64_t> indices_;          ///< the points kept, in the order kept
  std::vector<float> classes_, withheld_;  ///< their values as read, in that order
};

}  // namespace pcv
