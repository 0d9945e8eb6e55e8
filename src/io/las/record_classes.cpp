// Positions and classes read straight from the record bytes (las_point_fields.hpp's layout):
// X, Y, Z are the first three int32; the class is byte 16 in formats 6-10 and the low 5 bits of
// byte 15 in formats 0-5, whose top 3 bits are the class flags and stay as they are.
#include "pcv/io/record_classes.hpp"

#include <atomic>
#include <cstring>
#include <string>

#include "las_point_fields.hpp"
#include "pcv/core/error.hpp"
#include "pcv/core/parallel.hpp"

namespace pcv {
namespace {

/// Records per batch when reading positions: a few MiB of records at a time.
constexpr uint64_t kPositionBatch = 1 << 16;

class ReclassifiedRecords final : public PointRecordStream {
 public:
  ReclassifiedRecords(std::unique_ptr<PointRecordStream> source, RecordClassRule classOf)
      : source_(std::move(source)), classOf_(std::move(classOf)) {
    format_ = source_->format();
    pointCount_ = source_->pointCount();
    bounds_ = source_->bounds();
  }

  uint64_t next(uint64_t maxPoints, const uint8_t*& records) override {
    const uint8_t* batch = nullptr;
    const uint64_t count = source_->next(maxPoints, batch);
    if (count == 0) return 0;
    const uint64_t length = format_.recordLength;
    buffer_.resize(count * length);
    std::atomic<int> tooLarge{-1};
    parallelFor(count, [&](uint64_t begin, uint64_t end) {
      // Copied and patched by the same thread, on all cores.
      std::memcpy(buffer_.data() + begin * length, batch + begin * length, (end - begin) * length);
      const int large = patch(buffer_.data() + begin * length, end - begin, first_ + begin);
      if (large >= 0) tooLarge = large;
    });
    throwIfTooLarge(tooLarge);
    first_ += count;
    records = buffer_.data();
    return count;
  }

  bool randomAccess() const override { return source_->randomAccess(); }

  void readAt(uint64_t first, uint64_t count, uint8_t* into) const override {
    source_->readAt(first, count, into);
    throwIfTooLarge(patch(into, count, first));
  }

 private:
  /// Sets the class of `count` records at `records`, the first of them record `first`; returns
  /// a class too large for a legacy format that `classOf_` gave, or -1.
  int patch(uint8_t* records, uint64_t count, uint64_t first) const {
    const uint64_t length = format_.recordLength;
    const bool extended = io::lasFormatFields(format_.pointFormat).extended;
    int tooLarge = -1;
    for (uint64_t i = 0; i < count; ++i) {
      uint8_t* record = records + i * length;
      if (extended) {
        record[16] = classOf_(record[16], first + i);
        continue;
      }
      const uint8_t cls = classOf_(record[15] & 0x1F, first + i);
      if (cls > 31) {
        tooLarge = cls;
        continue;
      }
      record[15] = uint8_t((record[15] & 0xE0) | cls);
    }
    return tooLarge;
  }

  void throwIfTooLarge(int tooLarge) const {
    if (tooLarge >= 0) {
      throw InputError("class " + std::to_string(tooLarge) + " does not fit LAS point format " +
                       std::to_string(format_.pointFormat) +
                       ", which holds classes 0-31: expected a point format of 6 or more");
    }
  }

  std::unique_ptr<PointRecordStream> source_;
  RecordClassRule classOf_;
  std::vector<uint8_t> buffer_;
  uint64_t first_ = 0;  ///< index of the next batch's first record
};

}  // namespace

std::vector<glm::dvec3> recordPositions(PointRecordStream& stream) {
  std::vector<glm::dvec3> positions;
  positions.reserve(stream.pointCount());
  const LasWriteFormat& format = stream.format();
  const uint64_t length = format.recordLength;
  const uint8_t* batch = nullptr;
  for (uint64_t count; (count = stream.next(kPositionBatch, batch)) > 0;) {
    const size_t first = positions.size();
    positions.resize(first + count);
    parallelFor(count, [&](uint64_t begin, uint64_t end) {
      for (uint64_t i = begin; i < end; ++i) {
        const uint8_t* record = batch + i * length;
        glm::dvec3& p = positions[first + i];
        for (int a = 0; a < 3; ++a) {
          p[a] = double(io::loadLe<int32_t>(record + 4 * a)) * format.scale[a] + format.offset[a];
        }
      }
    });
  }
  return positions;
}

std::unique_ptr<PointRecordStream> reclassifyRecords(std::unique_ptr<PointRecordStream> source,
                                                     RecordClassRule classOf) {
  return std::make_unique<ReclassifiedRecords>(std::move(source), std::move(classOf));
}

}  // namespace pcv
