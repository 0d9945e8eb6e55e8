// Records moved between point formats and coordinate grids (pcv convert --point-format, merged
// inputs with different scales), and streams one after the other.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

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
    buffer_.resize(count * format_.recordLength);
    parallelFor(count, [&](uint64_t begin, uint64_t end) {
      reformat(in + begin * source_->format().recordLength, end - begin,
               buffer_.data() + begin * format_.recordLength);
    });
    records = buffer_.data();
    return count;
  }

  bool randomAccess() const override { return source_->randomAccess(); }

  void readAt(uint64_t first, uint64_t count, uint8_t* into) const override {
    // The source's records a part at a time into a buffer small enough to stay in the cache,
    // each part re-encoded from there: the copy costs little beside reading them in place.
    uint8_t in[kScratchBytes];
    const uint64_t fromLength = source_->format().recordLength;
    const uint64_t perRead = kScratchBytes / fromLength;
    for (uint64_t done = 0; done < count;) {
      const uint64_t n = std::min(perRead, count - done);
      source_->readAt(first + done, n, in);
      reformat(in, n, into + done * format_.recordLength);
      done += n;
    }
  }

 private:
  /// Bytes of the buffer readAt() reads the source's records into, on the stack: at least one
  /// record of the longest (a 16-bit record length).
  static constexpr uint64_t kScratchBytes = 65536;

  /// `count` of the source's records at `in` re-encoded into `out`; `in` and `out` do not
  /// overlap.
  void reformat(const uint8_t* in, uint64_t count, uint8_t* out) const {
    const LasWriteFormat& from = source_->format();
    const uint32_t fromExtra = from.recordLength - lasFormatRecordBytes(from.pointFormat);
    const uint32_t toExtra = format_.recordLength - lasFormatRecordBytes(format_.pointFormat);
    const uint32_t extra = std::min(fromExtra, toExtra);
    const bool regrid = !sameGrid(from, format_);
    // Bytes no field or extra byte fills stay 0; zeroed here, by the thread that fills them.
    std::memset(out, 0, count * format_.recordLength);
    for (uint64_t i = 0; i < count; ++i) {
      const uint8_t* r = in + i * from.recordLength;
      uint8_t* o = out + i * format_.recordLength;
      io::LasPointFields f = io::unpackLasPoint(r, from.pointFormat);
      if (regrid) moveToGrid(f, from, source_->pointCount());
      io::packLasPoint(f, format_.pointFormat, o);
      std::copy(r + lasFormatRecordBytes(from.pointFormat),
                r + lasFormatRecordBytes(from.pointFormat) + extra,
                o + lasFormatRecordBytes(format_.pointFormat));
    }
  }

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
      firsts_.push_back(firsts_.back() + source->pointCount());
    }
  }

  bool randomAccess() const override {
    return std::all_of(sources_.begin(), sources_.end(),
                       [](const auto& source) { return source->randomAccess(); });
  }

  /// The range taken from each source it spans, in turn.
  void readAt(uint64_t first, uint64_t count, uint8_t* into) const override {
    size_t s =
        size_t(std::upper_bound(firsts_.begin(), firsts_.end(), first) - firsts_.begin()) - 1;
    while (count > 0 && s < sources_.size()) {
      const uint64_t inSource = std::min(count, firsts_[s + 1] - first);
      if (inSource > 0) sources_[s]->readAt(first - firsts_[s], inSource, into);
      into += inSource * format_.recordLength;
      first += inSource;
      count -= inSource;
      ++s;
    }
    if (count > 0) {
      throw Error("records up to " + std::to_string(first + count) + " asked of " +
                  std::to_string(pointCount_));
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
  std::vector<uint64_t> firsts_{0};  ///< index of each source's first record, then the total
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
