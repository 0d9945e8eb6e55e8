// Points that are not LAS records yet (a cloud from any reader, a generated scene) as records:
// positions on a decimal grid as fine as the floats' precision, colours widened to 16 bits,
// pcv's attributes in their LAS fields.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>
#include <string>

#include "las_extra_bytes.hpp"
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

/// `v` rounded into [low, high]; NaN (a value missing) gives `missing`.
template <typename T>
T clampedInteger(double v, double low, double high, T missing = 0) {
  if (std::isnan(v)) return missing;
  return T(std::llround(std::clamp(v, low, high)));
}

/// One point's record from its position and colour and the LAS fields `f` already holds.
struct RecordMaker {
  LasWriteFormat format;

  void make(const Point& p, io::LasPointFields f, uint8_t* record) const {
    const float local[3] = {p.x, p.y, p.z};
    for (int a = 0; a < 3; ++a)
      f.xyz[a] = int32_t(std::llround(double(local[a]) / format.scale[a]));
    const uint32_t rgb[3] = {redOf(p.rgba), greenOf(p.rgba), blueOf(p.rgba)};
    // 8-bit channels times 257 span 16 bits, and come back exactly when read.
    for (int c = 0; c < 3; ++c) f.rgb[c] = uint16_t(rgb[c] * 257);
    io::packLasPoint(f, format.pointFormat, record);
  }
};

/// The LAS fields pcv's readers give as attributes, by their names.
enum LasField {
  kIntensity,
  kClassification,
  kReturnNumber,
  kNumberOfReturns,
  kSynthetic,
  kKeyPoint,
  kWithheld,
  kOverlap,
  kScannerChannel,
  kScanDirection,
  kEdgeOfFlightLine,
  kUserData,
  kScanAngle,
  kPointSourceId,
  kGpsTime,
  kNir,
  kLasFieldCount
};
constexpr const char* kLasFieldNames[kLasFieldCount] = {
    "intensity",
    "classification",
    "return_number",
    "number_of_returns",
    "synthetic",
    "key_point",
    "withheld",
    "overlap",
    "scanner_channel",
    "scan_direction",
    "edge_of_flight_line",
    "user_data",
    "scan_angle",
    "point_source_id",
    "gps_time",
    "nir",
};

/// Stores `v` as `type` at `p`; NaN in an integer type stores 0.
void storeScalar(uint8_t* p, io::ScalarType type, double v) {
  const double whole = std::isnan(v) ? 0.0 : v;
  switch (type) {
    case io::ScalarType::Int8:
      *p = uint8_t(clampedInteger<int8_t>(whole, INT8_MIN, INT8_MAX));
      break;
    case io::ScalarType::UInt8:
      *p = clampedInteger<uint8_t>(whole, 0, UINT8_MAX);
      break;
    case io::ScalarType::Int16:
      io::storeLe(p, clampedInteger<int16_t>(whole, INT16_MIN, INT16_MAX));
      break;
    case io::ScalarType::UInt16:
      io::storeLe(p, clampedInteger<uint16_t>(whole, 0, UINT16_MAX));
      break;
    case io::ScalarType::Int32:
      io::storeLe(p, clampedInteger<int32_t>(whole, INT32_MIN, INT32_MAX));
      break;
    case io::ScalarType::UInt32:
      io::storeLe(p, clampedInteger<uint32_t>(whole, 0, UINT32_MAX));
      break;
    case io::ScalarType::Int64:
      io::storeLe(p, int64_t(whole));
      break;
    case io::ScalarType::UInt64:
      io::storeLe(p, uint64_t(std::max(whole, 0.0)));
      break;
    case io::ScalarType::Float32:
      io::storeLe(p, float(v));
      break;
    case io::ScalarType::Float64:
      io::storeLe(p, v);
      break;
  }
}

/// The point format that keeps a cloud's fields: the one it was read from, else 0; one with RGB
/// (or GPS time) where the cloud has colours (or a gps_time attribute) and that format has none.
int pointFormatFor(const PointCloud& cloud) {
  int format = cloud.lasPointFormat >= 0 && cloud.lasPointFormat <= 10 ? cloud.lasPointFormat : 0;
  if (cloud.lasPointFormat < 0 && cloud.findAttribute("gps_time")) format = 1;
  // The same format with RGB: 0 -> 2, 1 -> 3, 4 -> 5, 6 -> 7, 9 -> 10.
  constexpr int kWithRgb[11] = {2, 3, 2, 3, 5, 5, 7, 7, 8, 10, 10};
  return cloud.hasColor ? kWithRgb[format] : format;
}

class CloudRecords : public PointRecordStream {
 public:
  CloudRecords(PointCloud cloud, int pointFormat) : cloud_(std::move(cloud)) {
    double maxAbs = 0.0;
    for (const Point& p : cloud_.points) {
      maxAbs = std::max(
          {maxAbs, std::fabs(double(p.x)), std::fabs(double(p.y)), std::fabs(double(p.z))});
    }
    format_ = formatFor(pointFormat, maxAbs, cloud_.origin);
    pointCount_ = cloud_.size();
    bounds_ = cloud_.worldBounds();
    for (int f = 0; f < kLasFieldCount; ++f) fields_[f] = cloud_.findAttribute(kLasFieldNames[f]);
    // The file's 16-bit colours where the format holds colours and the cloud kept all three.
    if (io::lasFormatFields(format_.pointFormat).rgb) {
      for (int c = 0; c < 3; ++c)
        colorFields_[c] = cloud_.findAttribute(io::kLasColorChannelNames[c]);
      if (!colorFields_[0] || !colorFields_[1] || !colorFields_[2])
        std::fill_n(colorFields_, 3, nullptr);
    }
    // The wave packet descriptor where the format holds one; elsewhere its fields are extra bytes.
    if (io::lasFormatFields(format_.pointFormat).wave) {
      for (size_t w = 0; w < std::size(io::kLasWavePacketFields); ++w) {
        waveFields_[w] = cloud_.findAttribute(io::kLasWavePacketFields[w].name);
      }
    }
    placeExtraBytes();
    maker_.format = format_;
  }

  uint64_t next(uint64_t maxPoints, const uint8_t*& records) override {
    const uint64_t count = std::min(maxPoints, pointCount_ - done_);
    const uint64_t length = format_.recordLength;
    buffer_.resize(count * length);
    parallelFor(count, [&](uint64_t begin, uint64_t end) {
      make(done_ + begin, end - begin, buffer_.data() + begin * length);
    });
    done_ += count;
    records = buffer_.data();
    return count;
  }

  /// Each record is made from its point alone.
  bool randomAccess() const override { return true; }

  void readAt(uint64_t first, uint64_t count, uint8_t* into) const override {
    if (first > pointCount_ || count > pointCount_ - first) {
      throw Error("records " + std::to_string(first) + "-" + std::to_string(first + count) +
                  " asked of a cloud of " + std::to_string(pointCount_));
    }
    make(first, count, into);
  }

 private:
  /// The records of points [first, first + count) into `out`.
  void make(uint64_t first, uint64_t count, uint8_t* out) const {
    const uint64_t length = format_.recordLength;
    // Fields a format has but pcv does not fill stay 0; zeroed here, by the thread that fills
    // them.
    std::memset(out, 0, count * length);
    for (uint64_t i = 0; i < count; ++i) {
      const uint64_t p = first + i;
      uint8_t* record = out + i * length;
      maker_.make(cloud_.points[p], fieldsOf(p), record);
      if (colorFields_[0]) writeFileColors(p, record);
      for (const ExtraField& extra : extras_) {
        storeScalar(record + extra.offset, extra.type, extra.attribute->value(p));
      }
    }
  }

  /// An attribute that is no LAS field, kept in the extra bytes.
  struct ExtraField {
    const ScalarAttribute* attribute;
    io::ScalarType type;
    uint32_t offset;  ///< bytes from the record's start
  };

  /// Every attribute that is no LAS field goes to the extra bytes, as its own type, and the
  /// Extra Bytes VLR names it.
  void placeExtraBytes() {
    std::vector<io::LasExtraBytes> described;
    uint32_t offset = format_.recordLength;
    for (const ScalarAttribute& attribute : cloud_.attributes) {
      const auto among = [&](const auto& fields) {
        return std::find(std::begin(fields), std::end(fields), &attribute) != std::end(fields);
      };
      const bool lasField = std::any_of(std::begin(kLasFieldNames), std::end(kLasFieldNames),
                                        [&](const char* name) { return attribute.name == name; }) ||
                            among(waveFields_) || among(colorFields_);
      if (lasField || attribute.name.empty()) continue;
      const io::ScalarType type = attribute.type;
      const uint32_t size = uint32_t(io::scalarSize(type));
      if (offset + size > UINT16_MAX) break;  // a record holds at most 65535 bytes
      extras_.push_back({&attribute, type, offset});
      described.push_back({.name = attribute.name, .type = type, .recordOffset = offset});
      offset += size;
    }
    if (extras_.empty()) return;
    format_.recordLength = uint16_t(offset);
    format_.vlrs.push_back({.userId = io::kLasSpecUserId,
                            .recordId = io::kExtraBytesRecordId,
                            .description = "Extra Bytes",
                            .payload = io::lasExtraBytesPayload(described)});
  }

  /// The 16-bit channels the file had, where they still give the point's 8-bit colour (a
  /// recoloured point gets its new colour times 257; a file of 8-bit values in the 16-bit fields
  /// gets them back as they were).
  void writeFileColors(uint64_t p, uint8_t* record) const {
    const uint32_t rgba = cloud_.points[p].rgba;
    const uint32_t shown[3] = {redOf(rgba), greenOf(rgba), blueOf(rgba)};
    const uint32_t rgb = io::lasFormatFields(format_.pointFormat).rgb;
    for (int c = 0; c < 3; ++c) {
      const double value = colorFields_[c]->value(p);
      if (!(value >= 0.0 && value <= 65535.0)) continue;
      const uint32_t channel = uint32_t(value);
      if (channel == shown[c] || (channel + 128) / 257 == shown[c]) {
        io::storeLe(record + rgb + 2 * c, uint16_t(channel));
      }
    }
  }

  double valueOf(int field, uint64_t p) const {
    return fields_[field] ? fields_[field]->value(p) : std::numeric_limits<double>::quiet_NaN();
  }

  io::LasPointFields fieldsOf(uint64_t p) const {
    io::LasPointFields f;
    const auto flag = [&](int field) { return valueOf(field, p) > 0.5; };
    f.intensity = saturatedU16(valueOf(kIntensity, p));
    f.classification = clampedInteger<uint8_t>(valueOf(kClassification, p), 0, 255);
    f.returnNumber = clampedInteger<uint8_t>(valueOf(kReturnNumber, p), 0, 15, 1);
    // Without a number of returns, the return is taken for the pulse's last.
    const double returns = valueOf(kNumberOfReturns, p);
    f.numberOfReturns = returns > 0.0 ? clampedInteger<uint8_t>(returns, 1, 15)
                                      : std::max<uint8_t>(f.returnNumber, 1);
    f.classFlags = uint8_t(flag(kSynthetic) | flag(kKeyPoint) << 1 | flag(kWithheld) << 2 |
                           flag(kOverlap) << 3);
    f.scannerChannel = clampedInteger<uint8_t>(valueOf(kScannerChannel, p), 0, 3);
    f.scanDirection = flag(kScanDirection);
    f.edgeOfFlightLine = flag(kEdgeOfFlightLine);
    f.userData = clampedInteger<uint8_t>(valueOf(kUserData, p), 0, 255);
    // Degrees: 0.006 degree steps in formats 6-10, whole degrees in 0-5.
    const double angle = valueOf(kScanAngle, p);
    f.scanAngle = clampedInteger<int16_t>(angle / 0.006, -30000, 30000);
    f.scanAngleRank = clampedInteger<int8_t>(angle, -90, 90);
    f.pointSourceId = clampedInteger<uint16_t>(valueOf(kPointSourceId, p), 0, 65535, 1);
    const double gpsTime = valueOf(kGpsTime, p);
    f.gpsTime = std::isnan(gpsTime) ? 0.0 : gpsTime;
    const uint32_t rgba = cloud_.points[p].rgba;
    // Without NIR, the colours' mean stands in for it.
    const double nir = valueOf(kNir, p);
    f.nir = std::isnan(nir) ? uint16_t((redOf(rgba) + greenOf(rgba) + blueOf(rgba)) / 3 * 257)
                            : saturatedU16(nir);
    for (size_t w = 0; w < std::size(io::kLasWavePacketFields); ++w) {
      const io::LasWavePacketField& field = io::kLasWavePacketFields[w];
      if (waveFields_[w])
        storeScalar(f.wavePacket + field.offset, field.type, waveFields_[w]->value(p));
    }
    return f;
  }

  PointCloud cloud_;
  RecordMaker maker_;
  const ScalarAttribute* fields_[kLasFieldCount] = {};
  const ScalarAttribute* waveFields_[std::size(io::kLasWavePacketFields)] = {};
  const ScalarAttribute* colorFields_[3] = {};  ///< red, green, blue as the file had them
  std::vector<ExtraField> extras_;
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
        io::LasPointFields f;
        f.intensity = saturatedU16(luminance * 256.0);
        f.classification = 1;
        f.returnNumber = f.numberOfReturns = 1;
        f.pointSourceId = 1;
        f.nir = uint16_t(uint32_t(luminance) * 257);
        // A scanner's pulse every 10 microseconds.
        f.gpsTime = double(done_ + i) * 1e-5;
        maker_.make(p, f, into + i * length);
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

int lasPointFormatFor(const PointCloud& cloud) {
  return pointFormatFor(cloud);
}

std::unique_ptr<PointRecordStream> producedRecords(std::shared_ptr<const PointProducer> producer,
                                                   const Box3d& bounds, const glm::dvec3& origin,
                                                   int pointFormat) {
  return std::make_unique<ProducedRecords>(std::move(producer), bounds, origin, pointFormat);
}

}  // namespace pcv
