/// @brief Collects rows of numbers parsed from text (PLY ascii, PCD ascii, text point lists)
/// into a cloud: one role and type per column, the origin from the first finite row, world
/// bounds from the double values, colours scaled once every row is known.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "pcv/core/bounds.hpp"
#include "pcv/core/point_cloud.hpp"
#include "common/record_layout.hpp"

namespace pcv::io {

/// What each column of a row means.
struct TextColumns {
  std::vector<FieldRole> roles;
  std::vector<ScalarType> types;       ///< how colour columns scale and packed colours read
  std::vector<int> attributeOfColumn;  ///< index into attributeNames, -1 for other roles
  std::vector<std::string> attributeNames;
};

class TextRowAssembler {
 public:
  explicit TextRowAssembler(TextColumns columns);
  void reserve(uint64_t points);
  /// One value per column.
  void addRow(const double* values);
  uint64_t rows() const { return cloud_.points.size(); }
  /// The finite rows' world bounds so far.
  const Box3d& worldBounds() const { return worldBounds_; }
  PointCloud finish();

 private:
  TextColumns columns_;
  PointCloud cloud_;
  Box3d worldBounds_;
  bool haveOrigin_ = false;
  bool hasChannels_ = false;
  bool hasPacked_ = false;
  std::vector<float> channels_;  ///< raw r, g, b, a per point until finish()
  double channelMax_ = 0.0;
  ScalarType channelType_ = ScalarType::UInt8;
};

}  // namespace pcv::io
