// The records a selection keeps: each batch of the source is tested on all cores, and the kept
// records are gathered in order into a buffer that the next call hands out.
#include "pcv/io/record_selection.hpp"

#include <cstring>
#include <vector>

#include "las_point_fields.hpp"
#include "pcv/core/error.hpp"
#include "pcv/core/parallel.hpp"

namespace pcv {

RecordPoint decodeRecordPoint(const uint8_t* record, const LasWriteFormat& format) {
  const io::LasPointFields f = io::unpackLasPoint(record, format.pointFormat);
  RecordPoint p;
  for (int a = 0; a < 3; ++a) p.world[a] = double(f.xyz[a]) * format.scale[a] + format.offset[a];
  p.classification = f.classification;
  p.returnNumber = f.returnNumber;
  p.numberOfReturns = f.numberOfReturns;
  p.intensity = f.intensity;
  p.gpsTime = f.gpsTime;
  p.userData = f.userData;
  p.pointSourceId = f.pointSourceId;
  p.scanAngle = format.pointFormat >= 6 ? f.scanAngle * 0.006 : double(f.scanAngleRank);
  p.classFlags = f.classFlags;
  p.scannerChannel = f.scannerChannel;
  p.scanDirection = f.scanDirection;
  p.edgeOfFlightLine = f.edgeOfFlightLine;
  p.nir = f.nir;
  return p;
}

namespace {

constexpr const char* kRecordAttributes =
    "intensity, gps_time, classification, return_number, number_of_returns, user_data, "
    "point_source_id, scan_angle, synthetic, key_point, withheld, overlap, scanner_channel, "
    "scan_direction, edge_of_flight_line, nir";

class SelectedRecords final : public PointRecordStream {
 public:
  SelectedRecords(std::unique_ptr<PointRecordStream> source, RecordPredicate keep,
                  uint64_t pointCount, std::atomic<uint64_t>* pointsRead)
      : source_(std::move(source)), keep_(std::move(keep)), pointsRead_(pointsRead) {
    format_ = source_->format();
    bounds_ = source_->bounds();
    pointCount_ = pointCount;
  }

  uint64_t next(uint64_t maxPoints, const uint8_t*& records) override {
    const uint64_t length = format_.recordLength;
    // Source batches are read until one keeps something (or the source ends), so 0 still
    // means the end. A source batch may hold more than maxPoints kept records: the rest waits.
    while (pendingCount_ == 0) {
      const uint8_t* batch = nullptr;
      const uint64_t count = source_->next(maxPoints, batch);
      if (count == 0) return 0;
      if (pointsRead_) *pointsRead_ += count;
      kept_.resize(count);
      parallelFor(count, [&](uint64_t begin, uint64_t end) {
        for (uint64_t i = begin; i < end; ++i) {
          kept_[i] = keep_(decodeRecordPoint(batch + i * length, format_)) ? 1 : 0;
        }
      });
      buffer_.resize(count * length);
      uint64_t out = 0;
      for (uint64_t i = 0; i < count; ++i) {
        if (!kept_[i]) continue;
        std::memcpy(buffer_.data() + out * length, batch + i * length, length);
        ++out;
      }
      pending_ = buffer_.data();
      pendingCount_ = out;
    }
    const uint64_t handed = std::min(maxPoints, pendingCount_);
    records = pending_;
    pending_ += handed * length;
    pendingCount_ -= handed;
    return handed;
  }

 private:
  std::unique_ptr<PointRecordStream> source_;
  RecordPredicate keep_;
  std::atomic<uint64_t>* pointsRead_;
  std::vector<uint8_t> kept_;
  std::vector<uint8_t> buffer_;
  const uint8_t* pending_ = nullptr;
  uint64_t pendingCount_ = 0;
};

}  // namespace

std::optional<double> recordAttribute(const RecordPoint& p, std::string_view name) {
  if (name == "intensity") return p.intensity;
  if (name == "gps_time") return p.gpsTime;
  if (name == "classification") return double(p.classification);
  if (name == "return_number") return double(p.returnNumber);
  if (name == "number_of_returns") return double(p.numberOfReturns);
  if (name == "user_data") return p.userData;
  if (name == "point_source_id") return p.pointSourceId;
  if (name == "scan_angle") return p.scanAngle;
  if (name == "synthetic") return double(p.classFlags & 1);
  if (name == "key_point") return double((p.classFlags >> 1) & 1);
  if (name == "withheld") return double((p.classFlags >> 2) & 1);
  if (name == "overlap") return double((p.classFlags >> 3) & 1);
  if (name == "scanner_channel") return double(p.scannerChannel);
  if (name == "scan_direction") return double(p.scanDirection);
  if (name == "edge_of_flight_line") return double(p.edgeOfFlightLine);
  if (name == "nir") return p.nir;
  return std::nullopt;
}

RecordPredicate filterPredicate(const PointFilter& filter) {
  const RecordPoint probe;
  for (const AttributeRange& range : filter.ranges) {
    if (!recordAttribute(probe, range.attribute)) {
      throw InputError("--range " + range.attribute + ": LAS records carry no '" +
                       range.attribute + "'; they carry " + kRecordAttributes);
    }
  }
  return [filter](const RecordPoint& p) {
    if (!filter.classes.contains(p.classification)) return false;
    if (!returnKept(filter, p.returnNumber, p.numberOfReturns)) return false;
    for (const AttributeRange& range : filter.ranges) {
      if (!rangeKeeps(range, *recordAttribute(p, range.attribute))) return false;
    }
    return true;
  };
}

std::unique_ptr<PointRecordStream> selectRecords(const PointRecordSource& source,
                                                 RecordPredicate keep, bool exactCount,
                                                 std::atomic<uint64_t>* pointsRead) {
  std::unique_ptr<PointRecordStream> stream = source();
  uint64_t count = stream->pointCount();
  if (exactCount) {
    SelectedRecords counting(std::move(stream), keep, 0, nullptr);
    count = 0;
    const uint8_t* records = nullptr;
    while (const uint64_t n = counting.next(1 << 20, records)) count += n;
    stream = source();
  }
  return std::make_unique<SelectedRecords>(std::move(stream), std::move(keep), count, pointsRead);
}

}  // namespace pcv
