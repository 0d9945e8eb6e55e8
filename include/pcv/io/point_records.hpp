/// @brief LAS point records as a stream, the input of LasFileWriter: a LAS or LAZ file's own
/// records (copied bit for bit), any cloud pcv reads turned into records, the demo cylinders
/// generated slice by slice, or another stream re-encoded in another point format and scale.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "pcv/core/bounds.hpp"
#include "pcv/core/point_cloud.hpp"
#include "pcv/core/point_producer.hpp"
#include "pcv/io/las_writer.hpp"

namespace pcv {

class PointRecordStream {
 public:
  virtual ~PointRecordStream() = default;

  /// The records' point format, length, scale and offset, and the VLRs that go with them.
  const LasWriteFormat& format() const { return format_; }
  /// Points the stream yields in all.
  uint64_t pointCount() const { return pointCount_; }
  /// World bounds of the points (from the file's header where that is all there is).
  const Box3d& bounds() const { return bounds_; }

  /// The next records, at most `maxPoints` of them (maxPoints * recordLength bytes); returns how
  /// many, 0 at the end. `records` stays valid until the next call.
  virtual uint64_t next(uint64_t maxPoints, const uint8_t*& records) = 0;

  /// The same records written to `into` (room for maxPoints of them) instead; a stream is read by
  /// one of the two, not both. The default copies what next() gives, on all cores, keeping what
  /// does not fit for the next call (a LAZ stream yields whole chunks); a stream that makes its
  /// records writes them there itself, which saves a pass when a caller gathers a whole input.
  virtual uint64_t read(uint64_t maxPoints, uint8_t* into);

  /// Whether readAt() works: the stream makes any range of its records on its own, without
  /// those before it (a LAS file's records, a cloud's, and streams that only re-encode such),
  /// so a writer can prepare consecutive ranges on several threads at once.
  virtual bool randomAccess() const { return false; }

  /// Records [first, first + count) of the pointCount() the stream yields, written to `into`
  /// (count * recordLength bytes), the same bytes next() gives for them. Only where
  /// randomAccess(); safe to call from several threads at once, and independent of next() and
  /// read(), which it leaves where they are. Throws what next() throws for those records.
  virtual void readAt(uint64_t first, uint64_t count, uint8_t* into) const;

 protected:
  LasWriteFormat format_;
  uint64_t pointCount_ = 0;
  Box3d bounds_;

 private:
  const uint8_t* unread_ = nullptr;  ///< records next() gave that read() has not passed on yet
  uint64_t unreadCount_ = 0;
};

/// A LAS or LAZ file's records, its VLRs and EVLRs (except LAZ's and COPC's own, which describe
/// the compressed layout). Throws InputError.
std::unique_ptr<PointRecordStream> openLasRecords(const std::filesystem::path& path);

/// The same, reading only what may hold points inside `region` (world coordinates): of a COPC
/// file, the chunks of the octree nodes whose cubes meet it (pointCount() counts those); of a
/// file whose header bounds miss it, nothing (all-zero header bounds count as unknown); of other
/// files, everything. The caller tests each
/// record: a chunk read holds points outside the region too. Throws InputError.
std::unique_ptr<PointRecordStream> openLasRecords(const std::filesystem::path& path,
                                                  const Box3d& region);

/// Whether a box (world coordinates: a file's header bounds, a COPC node's cube) may hold
/// points that are wanted; conservative.
using RegionTest = std::function<bool(const Box3d&)>;

/// The same, reading only the nodes and files whose boxes `region` may meet (a selection
/// polygon's mayMeet, say); an empty test reads everything. Throws InputError.
std::unique_ptr<PointRecordStream> openLasRecords(const std::filesystem::path& path,
                                                  const RegionTest& region);

/// Where the records a stream yields lie in their file.
struct RecordRuns {
  uint64_t filePoints = 0;  ///< records in the whole file
  /// Runs of consecutive records, {index of the first in the file, count}, in the order the
  /// stream yields them.
  std::vector<std::pair<uint64_t, uint64_t>> runs;
};

/// openLasRecords(path, region), and where in the file the records it yields lie: what an edit
/// needs to name the records it changes while reading only the COPC nodes a selection meets.
std::unique_ptr<PointRecordStream> openLasRecords(const std::filesystem::path& path,
                                                  const RegionTest& region, RecordRuns& runs);

/// The points of `cloud` as records of `pointFormat` (0-10): positions on a grid as fine as the
/// floats' precision over the cloud's extent, offset by its origin; colours scaled to 16 bits;
/// attributes named as the LAS readers name the fields (intensity, gps_time, point_source_id
/// ...) in those fields where the format has them; every other attribute in the extra bytes,
/// of its own type, named by an Extra Bytes VLR.
std::unique_ptr<PointRecordStream> cloudRecords(PointCloud cloud, int pointFormat);

/// The point format that keeps `cloud`'s fields: the one it was read from (PointCloud::
/// lasPointFormat), else 0 (1 with a gps_time attribute), moved to the one with RGB when the
/// cloud has colours.
int lasPointFormatFor(const PointCloud& cloud);

/// The points of `producer` (the demo cylinders, say) as records of `pointFormat`, produced a
/// slice at a time so any count fits in bounded memory. `bounds` (relative to `origin`) must
/// hold every point: the grid is as fine as the floats' precision over it. Formats with GPS time
/// count it up from 0 in steps of 10 microseconds, as a scanner's pulses would.
std::unique_ptr<PointRecordStream> producedRecords(std::shared_ptr<const PointProducer> producer,
                                                   const Box3d& bounds, const glm::dvec3& origin,
                                                   int pointFormat);

/// `source` re-encoded as `target` describes (point format, length, scale, offset): fields the
/// target lacks are dropped, those the source lacks are 0, extra bytes are kept where both have
/// room. Throws InputError when a coordinate does not fit the target's grid.
std::unique_ptr<PointRecordStream> reformatRecords(std::unique_ptr<PointRecordStream> source,
                                                   const LasWriteFormat& target);

/// Several streams one after the other in one format: the first's, with a scale as fine as the
/// finest and an offset that keeps every point on the 32-bit grid. Streams already in that
/// format are passed through unchanged.
std::unique_ptr<PointRecordStream> concatenateRecords(
    std::vector<std::unique_ptr<PointRecordStream>> sources);

}  // namespace pcv
