#include "scan_decoder.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "bitpack.hpp"

namespace pcv::io::e57 {
namespace {

/// Records decoded per block: the block's columns (a few doubles per record) stay in L2.
constexpr size_t kBlockRecords = 2048;

constexpr const char* kAttributeNames[kAttributeCount] = {
    "intensity",    "return_index", "return_count", "row_index",
    "column_index", "time_stamp",   "scan_index"};
/// The prototype field behind each attribute, and the field that flags its values invalid.
constexpr const char* kAttributeFields[kAttributeCount] = {
    "intensity", "returnIndex", "returnCount", "rowIndex", "columnIndex", "timeStamp", nullptr};
constexpr const char* kAttributeInvalidFields[kAttributeCount] = {
    "isIntensityInvalid", nullptr, nullptr, nullptr, nullptr, "isTimeStampInvalid", nullptr};

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

bool usableRange(const std::optional<ValueRange>& range) {
  return range && std::isfinite(range->minimum) && std::isfinite(range->maximum) &&
         range->maximum > range->minimum;
}

inline uint32_t toByte(double value, double minimum, double scale) {
  const double scaled = (value - minimum) * scale;
  // NaN fails the comparison and ends as 0.
  if (!(scaled > 0.0)) return 0;
  if (scaled >= 255.0) return 255;
  return uint32_t(scaled + 0.5);
}

}  // namespace

const char* attributeName(Attribute attribute) {
  return kAttributeNames[size_t(attribute)];
}

/// One block's decoded values, a column of doubles per field in use, and the scratch buffers
/// that turn packed bytes into them. One per thread.
struct ScanDecoder::Columns {
  std::vector<double> values;  ///< slot-major: kBlockRecords values per used field
  std::vector<uint8_t> packed;
  std::vector<uint64_t> raw;
  const std::vector<int>& slots;  ///< prototype field -> column, -1 when not decoded

  explicit Columns(const std::vector<int>& fieldSlots, size_t slotCount)
      : values(slotCount * kBlockRecords), raw(kBlockRecords), slots(fieldSlots) {}
  double* column(int field) { return values.data() + size_t(slots[field]) * kBlockRecords; }
  const double* column(int field) const {
    return values.data() + size_t(slots[field]) * kBlockRecords;
  }
};

ScanDecoder::ScanDecoder(const PagedFile& file, const ScanDescription& scan,
                         CompressedVectorLayout layout, const DecodeChoices& choices,
                         uint32_t scanIndex)
    : file_(file), scan_(scan), layout_(std::move(layout)), scanIndex_(scanIndex) {
  const std::array<int, 3> cartesian{scan.findField("cartesianX"), scan.findField("cartesianY"),
                                     scan.findField("cartesianZ")};
  const std::array<int, 3> spherical{scan.findField("sphericalRange"),
                                     scan.findField("sphericalAzimuth"),
                                     scan.findField("sphericalElevation")};
  auto all = [](const std::array<int, 3>& fields) {
    return fields[0] >= 0 && fields[1] >= 0 && fields[2] >= 0;
  };
  if (all(cartesian)) {
    position_ = cartesian;
    invalidState_ = scan.findField("cartesianInvalidState");
  } else if (all(spherical)) {
    position_ = spherical;
    spherical_ = true;
    invalidState_ = scan.findField("sphericalInvalidState");
  } else {
    file.fail("scan " + scan.elementPath +
              ": the prototype has neither cartesianX/Y/Z nor sphericalRange/Azimuth/Elevation, "
              "expected one of the two coordinate sets");
  }
  rotation_ = glm::mat3_cast(scan.pose.rotation);
  translation_ = scan.pose.translation;

  if (choices.colors) {
    const std::array<int, 3> color{scan.findField("colorRed"), scan.findField("colorGreen"),
                                   scan.findField("colorBlue")};
    if (all(color)) {
      color_ = color;
      colorInvalid_ = scan.findField("isColorInvalid");
      for (int c = 0; c < 3; ++c) {
        // The limits the file states for the sensor, else the range the prototype declares,
        // else floats in 0..1.
        std::optional<ValueRange> range = scan.colorLimits[c];
        if (!usableRange(range)) range = scan.prototype[color[c]].declaredRange();
        if (!usableRange(range)) range = ValueRange{.minimum = 0.0, .maximum = 1.0};
        colorMinimum_[c] = range->minimum;
        colorScale_[c] = 255.0 / (range->maximum - range->minimum);
      }
    }
  }
  for (size_t a = 0; a < kAttributeCount; ++a) {
    attribute_[a] = -1;
    attributeInvalid_[a] = -1;
    if (!choices.attributes[a] || !kAttributeFields[a]) continue;
    attribute_[a] = scan.findField(kAttributeFields[a]);
    if (attribute_[a] >= 0 && kAttributeInvalidFields[a]) {
      attributeInvalid_[a] = scan.findField(kAttributeInvalidFields[a]);
    }
  }
  if (const int intensity = attribute_[size_t(Attribute::Intensity)]; intensity >= 0) {
    std::optional<ValueRange> range = scan.intensityLimits;
    if (!usableRange(range)) range = scan.prototype[intensity].declaredRange();
    if (usableRange(range)) {
      intensityMinimum_ = range->minimum;
      intensityScale_ = 1.0 / (range->maximum - range->minimum);
    }
  }

  slots_.assign(scan.prototype.size(), -1);
  auto use = [&](int field) {
    if (field >= 0 && slots_[field] < 0) slots_[field] = slotCount_++;
  };
  for (int field : position_) use(field);
  use(invalidState_);
  positionSlots_ = slotCount_;
  if (hasColor()) {
    for (int field : color_) use(field);
    use(colorInvalid_);
  }
  for (size_t a = 0; a < kAttributeCount; ++a) {
    use(attribute_[a]);
    use(attributeInvalid_[a]);
  }
}

bool ScanDecoder::hasAttribute(Attribute attribute) const {
  if (attribute == Attribute::ScanIndex) return true;
  return attribute_[size_t(attribute)] >= 0;
}

void ScanDecoder::decodeField(int field, uint64_t first, size_t count, Columns& columns,
                              double* values) const {
  const RecordField& description = scan_.prototype[field];
  const unsigned bits = description.bitWidth();
  const bool scaled = description.type == FieldType::ScaledInteger;
  if (bits == 0) {
    // minimum == maximum: every value is the minimum and the bytestream is empty.
    const double value = scaled
                             ? double(description.minimum) * description.scale + description.offset
                             : double(description.minimum);
    std::fill(values, values + count, value);
    return;
  }
  // In range of the stream: the layout holds recordCount * bits bits and first + count <=
  // recordCount, whose product with bits the layout checked against the section size.
  const uint64_t bitBegin = first * bits;
  const uint64_t bitEnd = (first + count) * bits;
  const uint64_t byteBegin = bitBegin / 8;
  const uint64_t byteCount = (bitEnd + 7) / 8 - byteBegin;
  columns.packed.resize(byteCount + kUnpackPadding);
  std::memset(columns.packed.data() + byteCount, 0, kUnpackPadding);
  copyBytestream(file_, layout_.streams[field], byteBegin, byteCount, columns.packed.data());
  const uint8_t* packed = columns.packed.data();
  switch (description.type) {
    case FieldType::Single:
      for (size_t i = 0; i < count; ++i) {
        float value;
        std::memcpy(&value, packed + 4 * i, 4);
        values[i] = value;
      }
      return;
    case FieldType::Double:
      std::memcpy(values, packed, 8 * count);
      return;
    case FieldType::Integer:
    case FieldType::ScaledInteger: {
      uint64_t* raw = columns.raw.data();
      unpackBits(packed, unsigned(bitBegin % 8), bits, count, raw);
      // value = raw + minimum in two's complement: raw <= 2^64 - 1 never overflows there.
      const uint64_t minimum = uint64_t(description.minimum);
      if (scaled) {
        const double scale = description.scale, offset = description.offset;
        for (size_t i = 0; i < count; ++i) {
          values[i] = double(int64_t(raw[i] + minimum)) * scale + offset;
        }
      } else {
        for (size_t i = 0; i < count; ++i) values[i] = double(int64_t(raw[i] + minimum));
      }
      return;
    }
  }
}

void ScanDecoder::decodeBlock(uint64_t first, size_t count, bool positionsOnly,
                              Columns& columns) const {
  for (size_t field = 0; field < slots_.size(); ++field) {
    const int slot = slots_[field];
    if (slot < 0 || (positionsOnly && slot >= positionSlots_)) continue;
    decodeField(int(field), first, count, columns, columns.column(int(field)));
  }
}

glm::dvec3 ScanDecoder::localPosition(const Columns& columns, size_t i) const {
  const double a = columns.column(position_[0])[i];
  const double b = columns.column(position_[1])[i];
  const double c = columns.column(position_[2])[i];
  if (!spherical_) return glm::dvec3(a, b, c);
  // range, azimuth (from +x towards +y), elevation (from the xy plane towards +z).
  const double horizontal = a * std::cos(c);
  return glm::dvec3(horizontal * std::cos(b), horizontal * std::sin(b), a * std::sin(c));
}

std::optional<glm::dvec3> ScanDecoder::firstValidPosition() const {
  Columns columns(slots_, size_t(slotCount_));
  for (uint64_t first = 0; first < recordCount(); first += kBlockRecords) {
    const size_t count = size_t(std::min<uint64_t>(kBlockRecords, recordCount() - first));
    decodeBlock(first, count, true, columns);
    for (size_t i = 0; i < count; ++i) {
      if (invalidState_ >= 0 && columns.column(invalidState_)[i] != 0.0) continue;
      const glm::dvec3 world = rotation_ * localPosition(columns, i) + translation_;
      if (std::isfinite(world.x) && std::isfinite(world.y) && std::isfinite(world.z)) {
        return world;
      }
    }
  }
  return std::nullopt;
}

uint64_t ScanDecoder::decode(uint64_t first, uint64_t count, const glm::dvec3& origin,
                             const ScanOutput& out) const {
  Columns columns(slots_, size_t(slotCount_));
  uint64_t invalid = 0;
  const uint32_t white = packRgba(255, 255, 255);
  for (uint64_t blockFirst = first; blockFirst < first + count; blockFirst += kBlockRecords) {
    const size_t n = size_t(std::min<uint64_t>(kBlockRecords, first + count - blockFirst));
    decodeBlock(blockFirst, n, false, columns);
    const double* state = invalidState_ >= 0 ? columns.column(invalidState_) : nullptr;
    Point* points = out.points + blockFirst;
    for (size_t i = 0; i < n; ++i) {
      Point& point = points[i];
      // Any state but 0 drops the point: 1 means the coordinates give only a direction
      // (cartesian) or the range is meaningless (spherical), 2 means no position at all.
      if (state && state[i] != 0.0) {
        point.x = point.y = point.z = std::bit_cast<float>(kInvalidRecordBits);
        ++invalid;
      } else {
        const glm::dvec3 offset = rotation_ * localPosition(columns, i) + translation_ - origin;
        point.x = float(offset.x);
        point.y = float(offset.y);
        point.z = float(offset.z);
      }
    }
    if (hasColor()) {
      const double* red = columns.column(color_[0]);
      const double* green = columns.column(color_[1]);
      const double* blue = columns.column(color_[2]);
      const double* colorInvalid = colorInvalid_ >= 0 ? columns.column(colorInvalid_) : nullptr;
      for (size_t i = 0; i < n; ++i) {
        points[i].rgba = colorInvalid && colorInvalid[i] != 0.0
                             ? white
                             : packRgba(toByte(red[i], colorMinimum_[0], colorScale_[0]),
                                        toByte(green[i], colorMinimum_[1], colorScale_[1]),
                                        toByte(blue[i], colorMinimum_[2], colorScale_[2]));
      }
    } else {
      for (size_t i = 0; i < n; ++i) points[i].rgba = white;
    }
    for (size_t a = 0; a < kAttributeCount; ++a) {
      float* values = out.attributes[a];
      if (!values) continue;
      values += blockFirst;
      if (Attribute(a) == Attribute::ScanIndex) {
        std::fill(values, values + n, float(scanIndex_));
        continue;
      }
      if (attribute_[a] < 0) {
        std::fill(values, values + n, kNaN);
        continue;
      }
      const double* source = columns.column(attribute_[a]);
      const double* flags =
          attributeInvalid_[a] >= 0 ? columns.column(attributeInvalid_[a]) : nullptr;
      const bool intensity = Attribute(a) == Attribute::Intensity;
      for (size_t i = 0; i < n; ++i) {
        const double value =
            intensity ? (source[i] - intensityMinimum_) * intensityScale_ : source[i];
        values[i] = flags && flags[i] != 0.0 ? kNaN : float(value);
      }
    }
  }
  return invalid;
}

}  // namespace pcv::io::e57
