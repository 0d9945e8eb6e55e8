/// @brief The values as read of one attribute (the class or the withheld flag) of the points
/// edits have changed, kept so that the edits can be taken back and applied again: only the
/// points an edit reaches are kept (a bit per point says which are), so the first edit of a
/// billion points read costs what its selection holds, not a copy of every point's values.
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
  /// Keeps `values[k]`, the value point `indices[k]` holds before an edit changes it, for the
  /// points not kept yet (by an earlier call). Indices in any order, each once a call (an
  /// edit's selection).
  void keep(std::span<const uint64_t> indices, std::span<const float> values);
  /// Writes the values kept back into `attribute`.
  void restore(ScalarAttribute& attribute) const;
  /// Points kept.
  uint64_t size() const { return indices_.size(); }
  /// Keeps nothing, for no points.
  void clear() { reset(0); }

 private:
  UninitializedVector<uint64_t> touched_;  ///< bit i % 64 of word i / 64: point i is kept
  uint64_t points_ = 0;
  std::vector<uint64_t> indices_;  ///< the points kept, in the order kept
  std::vector<float> values_;      ///< their values as read, in that order
};

/// The classes and withheld flags as read of the points edits changed, each in its journal.
struct ReadValues {
  ReadValuesJournal classes, withheld;
  void reset(uint64_t points) {
    classes.reset(points);
    withheld.reset(points);
  }
  void grow(uint64_t points) {
    classes.grow(points);
    withheld.grow(points);
  }
  void clear() { reset(0); }
};

}  // namespace pcv
