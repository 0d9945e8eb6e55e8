/// @brief The part of a stream of LAS records that a selection keeps (a clip region, point
/// filters), written on unchanged, bit for bit: what "export the selection" and `pcv convert
/// --clip-box --classes ...` write. The test of each record gets its world position and its
/// fields decoded once.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string_view>

#include <glm/glm.hpp>

#include "pcv/core/bounds.hpp"
#include "pcv/core/point_filter.hpp"
#include "pcv/io/copc_writer.hpp"
#include "pcv/io/point_records.hpp"

namespace pcv {

/// One record as a selection sees it.
struct RecordPoint {
  glm::dvec3 world{0.0};  ///< X, Y, Z scaled and offset
  uint32_t classification = 0;
  uint32_t returnNumber = 0;
  uint32_t numberOfReturns = 0;
  double intensity = 0.0;
  double gpsTime = 0.0;  ///< 0 in formats without it
  double userData = 0.0;
  double pointSourceId = 0.0;
  double scanAngle = 0.0;   ///< degrees
  uint32_t classFlags = 0;  ///< synthetic, key-point, withheld, overlap (bits 0-3)
  uint32_t scannerChannel = 0;
  uint32_t scanDirection = 0, edgeOfFlightLine = 0;
  double nir = 0.0;  ///< 0 in formats without it
};

/// One record of `format` as a selection sees it.
RecordPoint decodeRecordPoint(const uint8_t* record, const LasWriteFormat& format);

/// The value of the field named as the readers name it ("intensity", "gps_time",
/// "classification", "synthetic" ...: every LAS field but the colours), or empty for a name LAS
/// records do not carry.
std::optional<double> recordAttribute(const RecordPoint& point, std::string_view name);

/// Whether a record is kept; called from several threads at once.
using RecordPredicate = std::function<bool(const RecordPoint& point)>;

/// The predicate of `filter` (classes, returns, ranges by recordAttribute). Throws InputError
/// for a range over an attribute LAS records do not carry, naming the ones they do.
RecordPredicate filterPredicate(const PointFilter& filter);

/// The records of `source` that `keep` accepts, in order. pointCount() is the source's (an upper
/// bound) unless `exactCount`, when a first pass over source() counts them (COPC needs the count
/// before the points). The bounds are the source's.
/// `pointsRead` (may be null) counts the source's records as they are read.
std::unique_ptr<PointRecordStream> selectRecords(const PointRecordSource& source,
                                                 RecordPredicate keep, bool exactCount,
                                                 std::atomic<uint64_t>* pointsRead = nullptr);

}  // namespace pcv
