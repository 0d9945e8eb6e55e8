// Points that are not LAS records yet (a cloud from any reader, a generated scene) as records:
// positions on a decimal grid as fine as the floats' precision, colours widened to 16 bits,
// pcv's attributes in their LAS fields.
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

/// The decimal grid step for coordinates up to `maxAbs`: a float's precision there is about
/// maxAbs * 2^-24, and a step no coarser keeps it; 2^31 steps still span ten times maxAbs.
double gridFor(double maxAbs) {
  const double precision = std::max(maxAbs, 1e-3) * std::ldexp(1.0, -24);
  return std::clamp(std::pow(10.0, std::floor(std::log10(precision))), 1e-9, 1.0);
}

LasWriteFormat formatFor(int pointFormat, double maxAbs, const glm::dvec3& origin) {
  if (pointFormat < 0 || pointFormat > 10) {
    throw InputError("point format " + std::to_string(pointFormat) + " is not defined (0-10)");
  }
  LasWriteFormat format{.pointFormat = pointFormat,
                        .recordLength = lasFormatRecordBytes(pointFormat),
                        .versionMinor = minimumLasMinorVersion(pointFormat),
                        .scale = glm::dvec3(gridFor(maxAbs)),
                        .offset = origin};
  // LAS 1.4 asks formats 6-10 to describe their coordinate system in WKT (bit 4).
  if (pointFormat >= 6) format.globalEncoding = 1u << 4;
  return format;
}

uint16_t saturatedU16(double v) {
  if (!(v > 0.0)) return 0;
  return v >= 65535.0 ? 65535 : uint16_t(v + 0.5);
}

/// One point's record fields from its position, colour and pcv attributes.
struct RecordMaker {
  LasWriteFormat format;

  void make(const Point& p, double intensity, double classification, double returnNumber,
            double gpsTime, uint8_t* record, double numberOfReturns = 0.0) const {
    io::LasPointFields f;
    const float local[3] = {p.x, p.y, p.z};
    for (int a = 0; a < 3; ++a)
      f.xyz[a] = int32_t(std::llround(double(local[a]) / format.scale[a]));
    const uint32_t rgb[3] = {redOf(p.rgba), greenOf(p.rgba), blueOf(p.rgba)};
    // 8-bit channels times 257 span 16 bits, and come back exactly when read.
    for (int c = 0; c < 3; ++c) f.rgb[c] = uint16_t(rgb[c] * 257);
    f.nir = uint16_t((rgb[0] + rgb[1] + rgb[2]) / 3 * 257);
    f.intensity = saturatedU16(intensity);
    f.classification = uint8_t(std::clamp(classification, 0.0, 255.0));
    f.returnNumber = uint8_t(std::clamp(returnNumber, 0.0, 15.0));
    // Without a number of returns, the return is taken for the pulse's last.
    f.numberOfReturns = numberOfReturns > 0.0
                            ? uint8_t(std::clamp(numberOfReturns, 1.0, 15.0))
                            : std::max<uint8_t>(f.returnNumber, 1);
    f.gpsTime = gpsTime;
    f.pointSourceId = 1;
    io::packLasPoint(f, format.pointFormat, record);
  }
};

class CloudRecords : public PointRecordStream {
 public:
  CloudRecords(PointCloud cloud, int pointFormat) : cloud_(std::move(cloud)) {
    double maxAbs = 0.0;
    for (const Point& p : cloud_.points) {
      maxAbs = std::max(
          {maxAbs, std::fabs(double(p.x)), std::fabs(double(p.y)), std::fabs(double(p.z))});
    }
    maker_.format = format_ = formatFor(pointFormat, maxAbs, cloud_.origin);
    pointCount_ = cloud_.size();
    bounds_ = cloud_.worldBounds();
    intensity_ = cloud_.findAttribute("intensity");
    classification_ = cloud_.findAttribute("classification");
    returnNumber_ = cloud_.findAttribute("return_number");
    numberOfReturns_ = cloud_.findAttribute("number_of_returns");
  }

  uint64_t next(uint64_t maxPoints, const uint8_t*& records) override {
    const uint64_t count = std::min(maxPoints, pointCount_ - done_);
    const uint64_t length = format_.recordLength;
    buffer_.resize(count * length);
    parallelFor(count, [&](uint64_t begin, uint64_t end) {
      // Fields a format has but pcv does not fill stay 0; zeroed here, not by one thread first.
      std::memset(buffer_.data() + begin * length, 0, (end - begin) * length);
      for (uint64_t i = begin; i < end; ++i) {
        const uint64_t p = done_ + i;
        auto value = [&](const ScalarAttribute* a, double missing) {
          return a && std::isfinite(a->values[p]) ? double(a->values[p]) : missing;
        };
        maker_.make(cloud_.points[p], value(intensity_, 0.0), value(classification_, 0.0),
                    value(returnNumber_, 1.0), 0.0, buffer_.data() + i * length,
                    value(numberOfReturns_, 0.0));
      }
    });
    done_ += count;
    records = buffer_.data();
    return count;
  }

 private:
  PointCloud cloud_;
  RecordMaker maker_;
  const ScalarAttribute* intensity_ = nullptr;
  const ScalarAttribute* classification_ = nullptr;
  const ScalarAttribute* returnNumber_ = nullptr;
  const ScalarAttribute* numberOfReturns_ = nullptr;
  UninitializedVector<uint8_t> buffer_;  ///< zeroed by the threads that fill it
  uint64_t done_ = 0;
};

class ProducedRecords : public PointRecordStream {
 public:
  ProducedRecords(std::shared_ptr<const PointProducer> producer, const Box3d& bounds,
                  const glm::dvec3& origin, int pointFormat)
      : producer_(std::move(producer)) {
    const double maxAbs =
        std::max({std::fabs(bounds.min.x), std::fabs(bounds.min.y), std::fabs(bounds.min.z),
                  std::fabs(bounds.max.x), std::fabs(bounds.max.y), std::fabs(bounds.max.z)});
    maker_.format = format_ = formatFor(pointFormat, maxAbs, origin);
    pointCount_ = producer_->pointCount();
    bounds_.min = bounds.min + origin;
    bounds_.max = bounds.max + origin;
  }

  uint64_t next(uint64_t maxPoints, const uint8_t*& records) override {
    buffer_.resize(std::min(maxPoints, pointCount_ - done_) * format_.recordLength);
    records = buffer_.data();
    return read(maxPoints, buffer_.data());
  }

  uint64_t read(uint64_t maxPoints, uint8_t* into) override {
    const uint64_t count = std::min(maxPoints, pointCount_ - done_);
    const uint64_t length = format_.recordLength;
    points_.resize(count);
    producer_->produce(done_, std::span<Point>(points_.data(), count));
    parallelFor(count, [&](uint64_t begin, uint64_t end) {
      // Fields a format has but pcv does not fill stay 0; zeroed here, not by one thread first.
      std::memset(into + begin * length, 0, (end - begin) * length);
      for (uint64_t i = begin; i < end; ++i) {
        const Point& p = points_[i];
        const double luminance = (redOf(p.rgba) + greenOf(p.rgba) + blueOf(p.rgba)) / 3.0;
        // A scanner's pulse every 10 microseconds.
        const double gpsTime = double(done_ + i) * 1e-5;
        maker_.make(p, luminance * 256.0, 1.0, 1.0, gpsTime, into + i * length);
      }
    });
    done_ += count;
    return count;
  }

 private:
  std::shared_ptr<const PointProducer> producer_;
  RecordMaker maker_;
  UninitializedVector<Point> points_;    ///< written by the producer
  UninitializedVector<uint8_t> buffer_;  ///< next()'s records, zeroed by the threads that fill it
  uint64_t done_ = 0;
};

}  // namespace

std::unique_ptr<PointRecordStream> cloudRecords(PointCloud cloud, int pointFormat) {
  return std::make_unique<CloudRecords>(std::move(cloud), pointFormat);
}

std::unique_ptr<PointRecordStream> producedRecords(std::shared_ptr<const PointProducer> producer,
                                                   const Box3d& bounds, const glm::dvec3& origin,
                                                   int pointFormat) {
  return std::make_unique<ProducedRecords>(std::move(producer), bounds, origin, pointFormat);
}

}  // namespace pcv
