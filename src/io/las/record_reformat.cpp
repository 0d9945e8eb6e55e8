// Records moved between point formats and coordinate grids (pcv convert --point-format, merged
// inputs with different scales), and streams one after the other.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "las_point_fields.hpp"
#include "pcv/core/error.hpp"
#include "pcv/core/parallel.hpp"
#include "pcv/core/uninitialized_vector.hpp"
#include "pcv/io/point_records.hpp"

namespace pcv {
namespace {

bool sameGrid(const LasWriteFormat& a, const LasWriteFormat& b) {
  return a.scale == b.scale && a.offset == b.offset;
}

bool sameRecords(const LasWriteFormat& a, const LasWriteFormat& b) {
  return a.pointFormat == b.pointFormat && a.recordLength == b.recordLength && sameGrid(a, b);
}

class ReformattedRecords : public PointRecordStream {
 public:
  ReformattedRecords(std::unique_ptr<PointRecordStream> source, const LasWriteFormat& target)
      : source_(std::move(source)) {
    format_ = target;
    pointCount_ = source_->pointCount();
    bounds_ = source_->bounds();
  }

  uint64_t next(uint64_t maxPoints, const uint8_t*& records) override {
    const uint8_t* in = nullptr;
    const uint64_t count = source_->next(maxPoints, in);
    const LasWriteFormat& from = source_->format();
    buffer_.resize(count * format_.recordLength);
    const uint32_t fromExtra = from.recordLength - lasFormatRecordBytes(from.pointFormat);
    const uint32_t toExtra = format_.recordLength - lasFormatRecordBytes(format_.pointFormat);
    const uint32_t extra = std::min(fromExtra, toExtra);
    const bool regrid = !sameGrid(from, format_);
    parallelFor(count, [&](uint64_t begin, uint64_t end) {
      // Bytes no field or extra byte fills stay 0; zeroed here, not by one thread first.
      std::memset(buffer_.data() + begin * format_.recordLength, 0,
                  (end - begin) * format_.recordLength);
      for (uint64_t i = begin; i < end; ++i) {
        const uint8_t* r = in + i * from.recordLength;
        uint8_t* out = buffer_.data() + i * format_.recordLength;
        io::LasPointFields f = io::unpackLasPoint(r, from.pointFormat);
        if (regrid) moveToGrid(f, from, source_->pointCount());
        io::packLasPoint(f, format_.pointFormat, out);
        std::copy(r + lasFormatRecordBytes(from.pointFormat),
                  r + lasFormatRecordBytes(from.pointFormat) + extra,
                  out + lasFormatRecordBytes(format_.pointFormat));
      }
    });
    records = buffer_.data();
    return count;
  }

 private:
  void moveToGrid(io::LasPointFields& f, const LasWriteFormat& from, uint64_t) const {
    for (int a = 0; a < 3; ++a) {
      const double world = f.xyz[a] * from.scale[a] + from.offset[a];
      const double steps = std::round((world - format_.offset[a]) / format_.scale[a]);
      if (!(steps >= double(INT32_MIN) && steps <= double(INT32_MAX))) {
        throw InputError("coordinate " + std::to_string(world) + " does not fit the output's " +
                         "32-bit grid (scale " + std::to_string(format_.scale[a]) + ", offset " +
                         std::to_string(format_.offset[a]) + ")");
      }
      f.xyz[a] = int32_t(steps);
    }
  }

  std::unique_ptr<PointRecordStream> source_;
  UninitializedVector<uint8_t> buffer_;  ///< zeroed by the threads that fill it
};

class ConcatenatedRecords : public PointRecordStream {
 public:
  explicit ConcatenatedRecords(std::vector<std::unique_ptr<PointRecordStream>> sources)
      : sources_(std::move(sources)) {
    format_ = sources_.front()->format();
    for (const auto& source : sources_) {
      pointCount_ += source->pointCount();
      bounds_.extend(source->bounds());
      for (int a = 0; a < 3; ++a)
        format_.scale[a] = std::min(format_.scale[a], source->format().scale[a]);
    }
    // The first stream's offset unless the merged bounds leave its 32-bit grid.
    for (int a = 0; a < 3; ++a) {
      const double reach = std::max(std::fabs(bounds_.min[a] - format_.offset[a]),
                                    std::fabs(bounds_.max[a] - format_.offset[a]));
      if (reach / format_.scale[a] > 2.0e9) format_.offset[a] = std::round(bounds_.center()[a]);
    }
    for (auto& source : sources_) {
      if (!sameRecords(source->format(), format_)) {
        source = reformatRecords(std::move(source), format_);
      }
    }
  }

  uint64_t next(uint64_t maxPoints, const uint8_t*& records) override {
    while (current_ < sources_.size()) {
      if (const uint64_t count = sources_[current_]->next(maxPoints, records)) return count;
      ++current_;
    }
    return 0;
  }

 private:
  std::vector<std::unique_ptr<PointRecordStream>> sources_;
  size_t current_ = 0;
};

}  // namespace

std::unique_ptr<PointRecordStream> reformatRecords(std::unique_ptr<PointRecordStream> source,
                                                   const LasWriteFormat& target) {
  if (sameRecords(source->format(), target)) return source;
  return std::make_unique<ReformattedRecords>(std::move(source), target);
}

std::unique_ptr<PointRecordStream> concatenateRecords(
    std::vector<std::unique_ptr<PointRecordStream>> sources) {
  if (sources.size() == 1) return std::move(sources.front());
  return std::make_unique<ConcatenatedRecords>(std::move(sources));
}

}  // namespace pcv
