/// @brief Turns blocks of binary records into points: positions relative to the cloud's origin,
/// RGBA8 colours and float attributes, with world bounds taken from the double coordinates.
/// decodeRecords does a whole block on all cores, in slices whose finished prefix a viewer can
/// show; RecordDecoder is the same per-point code for readers that produce their records in
/// pieces (decompressed chunks).
#pragma once

#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "pcv/core/bounds.hpp"
#include "pcv/core/point_cloud.hpp"
#include "read_context.hpp"
#include "record_layout.hpp"

namespace pcv::io {

class RecordDecoder {
 public:
  /// Copies the layout's fields, sorted by role. Fails through `context` when there is no x or
  /// y (z defaults to 0).
  RecordDecoder(const RecordLayout& layout, const ReadContext& context);

  /// The world position of record i of the block at `data`.
  glm::dvec3 worldPosition(const uint8_t* data, uint64_t i) const;
  /// The first finite position among records [0, count) rounded to whole units, or 0.
  glm::dvec3 originOf(const uint8_t* data, uint64_t count) const;
  /// The largest colour channel value among records [0, count), in parallel; 0 without colour
  /// channels.
  double maxChannelValue(const uint8_t* data, uint64_t count) const;
  /// Colour channels are multiplied by this before rounding to 8 bits (see colourScaleFor).
  void setChannelScale(double scale) { channelScale_ = scale; }
  /// Whether the records carry colours (three channels or a packed colour).
  bool hasColor() const { return hasChannels() || hasPacked_; }
  /// Whether colours come as three channels whose type is wider than 8 bits and so need a scale.
  bool needsChannelScale() const;

  /// A cloud of `count` points and attribute values, all uninitialised, for decode() to fill;
  /// fails through `context` with the sizes when they cannot fit in host memory.
  PointCloud allocateCloud(uint64_t count, const glm::dvec3& origin,
                           const ReadContext& context) const;
  /// The empty cloud a header-only read returns: attribute names and hasColor, no points.
  PointCloud describeCloud() const;
  /// Decodes records [begin, end) of the block at `data` into cloud points from `firstPoint`
  /// on (cloud made by allocateCloud); returns the world bounds of their finite positions.
  Box3d decode(const uint8_t* data, uint64_t begin, uint64_t end, PointCloud& cloud,
               uint64_t firstPoint) const;

 private:
  /// Records decode() converts field by field at a time.
  static constexpr uint64_t kBlockRecords = 256;

  bool hasChannels() const { return channelsSeen_ == 7u; }
  uint32_t colorOf(const uint8_t* data, uint64_t i) const;
  /// colorOf for records [first, first + n), n <= kBlockRecords.
  void colorColumn(const uint8_t* data, uint64_t first, uint64_t n, uint32_t* out) const;

  FieldLayout axis_[3];
  bool hasAxis_[3] = {false, false, false};
  FieldLayout channels_[3];
  uint32_t channelsSeen_ = 0;  ///< bit c: channel c (red, green, blue) among the fields
  FieldLayout packed_;
  bool hasPacked_ = false;
  std::vector<FieldLayout> attributes_;
  std::vector<bool> wideAttributes_;  ///< per entry of attributes_: stored as doubles
  std::vector<std::string> attributeNames_;
  std::vector<AttributeType> attributeTypes_;  ///< per name
  double channelScale_ = 1.0;
};

/// Decodes every record of `source` on all cores. With a listener on the context's progress
/// the records go in up to 16 consecutive slices, each followed by the finished prefix.
/// `worldBounds` receives the bounds of the finite double positions. The caller has checked
/// that every field of every record lies inside the data.
PointCloud decodeRecords(const RecordSource& source, const ReadContext& context,
                         Box3d& worldBounds);

}  // namespace pcv::io
