#include "scan_decoder.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include <glm/gtc/quaternion.hpp>

#include "bitpack.hpp"
#include "common/byte_order.hpp"

namespace pcv::io::e57 {
namespace {

/// Records decoded per block: the block's columns (a few doubles per record) stay in L2.
constexpr size_t kBlockRecords = 2048;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr uint32_t kWhite = packRgba(255, 255, 255);

inline uint32_t toByte(double value, const ValueScale& scale) {
  const double scaled = (value - scale.minimum) * scale.scale;
  // NaN fails the comparison and ends as 0.
  if (!(scaled > 0.0)) return 0;
  if (scaled >= 255.0) return 255;
  return uint32_t(scaled + 0.5);
}

bool isFinite(const glm::dvec3& p) {
  return std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z);
}

/// The scan's own coordinates of a record: x y z, or range, azimuth (from +x towards +y) and
/// elevation (from the xy plane towards +z).
inline glm::dvec3 localPosition(double a, double b, double c, bool spherical) {
  if (!spherical) return glm::dvec3(a, b, c);
  const double horizontal = a * std::cos(c);
  return glm::dvec3(horizontal * std::cos(b), horizontal * std::sin(b), a * std::sin(c));
}

}  // namespace

/// One block's decoded values, a column of doubles per field in use, and the scratch buffers
/// that turn packed bytes into them. One per thread.
struct ScanDecoder::Block {
  std::vector<double> values;  ///< column-major: kBlockRecords values per column
  std::vector<uint8_t> packed;
  std::vector<uint64_t> raw;
  const std::vector<int>& columns;

  Block(const std::vector<int>& fieldColumns, int columnCount)
      : values(size_t(columnCount) * kBlockRecords), raw(kBlockRecords), columns(fieldColumns) {}
  double* column(int field) { return values.data() + size_t(columns[field]) * kBlockRecords; }
  const double* column(int field) const {
    return values.data() + size_t(columns[field]) * kBlockRecords;
  }
};

ScanDecoder::ScanDecoder(const PagedFile& file, const ScanDescription& scan,
                         CompressedVectorLayout layout, const ScanFields& fields,
                         uint32_t scanIndex)
    : file_(file),
      scan_(scan),
      layout_(std::move(layout)),
      fields_(fields),
      scanIndex_(scanIndex),
      rotation_(glm::mat3_cast(scan.pose.rotation)),
      translation_(scan.pose.translation) {
  assignColumns();
}

void ScanDecoder::assignColumns() {
  columns_.assign(scan_.prototype.size(), -1);
  auto use = [&](int field) {
    if (field >= 0 && columns_[field] < 0) columns_[field] = columnCount_++;
  };
  for (int field : fields_.position) use(field);
  use(fields_.invalidState);
  positionColumns_ = columnCount_;
  if (fields_.hasColor()) {
    for (int field : fields_.color) use(field);
    use(fields_.colorInvalid);
  }
  for (size_t a = 0; a < kAttributeCount; ++a) {
    use(fields_.attribute[a]);
    use(fields_.attributeInvalid[a]);
  }
}

bool ScanDecoder::hasAttribute(Attribute attribute) const {
  return attribute == Attribute::ScanIndex || fields_.attribute[size_t(attribute)] >= 0;
}

void ScanDecoder::decodeField(int field, uint64_t first, size_t count, Block& block) const {
  const RecordField& description = scan_.prototype[field];
  double* values = block.column(field);
  const unsigned bits = description.bitWidth();
  const bool scaled = description.type == FieldType::ScaledInteger;
  const double scale = scaled ? description.scale : 1.0;
  const double offset = scaled ? description.offset : 0.0;
  if (bits == 0) {
    // minimum == maximum: every value is the minimum and the bytestream is empty.
    std::fill(values, values + count, double(description.minimum) * scale + offset);
    return;
  }
  // Inside the stream: the layout holds the bits of recordCount records, first + count <=
  // recordCount, and the layout checked recordCount * bits against the section's size.
  const uint64_t bitBegin = first * bits;
  const uint64_t byteBegin = bitBegin / 8;
  const uint64_t byteCount = ((first + count) * bits + 7) / 8 - byteBegin;
  block.packed.resize(byteCount + kUnpackPadding);
  std::memset(block.packed.data() + byteCount, 0, kUnpackPadding);
  copyBytestream(file_, layout_.streams[field], byteBegin, byteCount, block.packed.data());
  const uint8_t* packed = block.packed.data();
  if (description.type == FieldType::Single) {
    for (size_t i = 0; i < count; ++i) {
      values[i] = loadLe<float>(packed + 4 * i);
    }
  } else if (description.type == FieldType::Double) {
    std::memcpy(values, packed, 8 * count);
  } else {
    uint64_t* raw = block.raw.data();
    unpackBits(packed, unsigned(bitBegin % 8), bits, count, raw);
    // value = raw + minimum in two's complement: no raw of 64 bits or fewer overflows there.
    const uint64_t minimum = uint64_t(description.minimum);
    for (size_t i = 0; i < count; ++i) {
      values[i] = double(int64_t(raw[i] + minimum)) * scale + offset;
    }
  }
}

void ScanDecoder::decodeBlock(uint64_t first, size_t count, bool positionsOnly,
                              Block& block) const {
  for (size_t field = 0; field < columns_.size(); ++field) {
    const int column = columns_[field];
    if (column < 0 || (positionsOnly && column >= positionColumns_)) continue;
    decodeField(int(field), first, count, block);
  }
}

glm::dvec3 ScanDecoder::worldPosition(const Block& block, size_t i) const {
  return rotation_ * localPosition(block.column(fields_.position[0])[i],
                                   block.column(fields_.position[1])[i],
                                   block.column(fields_.position[2])[i], fields_.spherical) +
         translation_;
}

bool ScanDecoder::isValid(const Block& block, size_t i) const {
  return fields_.invalidState < 0 || block.column(fields_.invalidState)[i] == 0.0;
}

std::optional<glm::dvec3> ScanDecoder::firstValidPosition() const {
  Block block(columns_, columnCount_);
  for (uint64_t first = 0; first < recordCount(); first += kBlockRecords) {
    const size_t count = size_t(std::min<uint64_t>(kBlockRecords, recordCount() - first));
    decodeBlock(first, count, true, block);
    for (size_t i = 0; i < count; ++i) {
      if (!isValid(block, i)) continue;
      const glm::dvec3 world = worldPosition(block, i);
      if (isFinite(world)) return world;
    }
  }
  return std::nullopt;
}

uint64_t ScanDecoder::writePositions(const Block& block, size_t count, const glm::dvec3& origin,
                                     Point* points, Box3d& bounds) const {
  const double* a = block.column(fields_.position[0]);
  const double* b = block.column(fields_.position[1]);
  const double* c = block.column(fields_.position[2]);
  const double* state = fields_.invalidState >= 0 ? block.column(fields_.invalidState) : nullptr;
  const bool spherical = fields_.spherical;
  uint64_t invalid = 0;
  for (size_t i = 0; i < count; ++i) {
    Point& point = points[i];
    // Any state but 0 drops the record: 1 means the coordinates give only a direction
    // (cartesian) or the range is meaningless (spherical), 2 means no position at all.
    if (state && state[i] != 0.0) {
      point.x = point.y = point.z = std::bit_cast<float>(kInvalidRecordBits);
      ++invalid;
      continue;
    }
    const glm::dvec3 world = rotation_ * localPosition(a[i], b[i], c[i], spherical) + translation_;
    if (isFinite(world)) bounds.extend(world);
    const glm::dvec3 offset = world - origin;
    point.x = float(offset.x);
    point.y = float(offset.y);
    point.z = float(offset.z);
  }
  return invalid;
}

void ScanDecoder::writeColors(const Block& block, size_t count, Point* points) const {
  if (!fields_.hasColor()) {
    for (size_t i = 0; i < count; ++i) points[i].rgba = kWhite;
    return;
  }
  const double* red = block.column(fields_.color[0]);
  const double* green = block.column(fields_.color[1]);
  const double* blue = block.column(fields_.color[2]);
  const double* invalid = fields_.colorInvalid >= 0 ? block.column(fields_.colorInvalid) : nullptr;
  const auto& scale = fields_.colorScale;
  for (size_t i = 0; i < count; ++i) {
    points[i].rgba = invalid && invalid[i] != 0.0
                         ? kWhite
                         : packRgba(toByte(red[i], scale[0]), toByte(green[i], scale[1]),
                                    toByte(blue[i], scale[2]));
  }
}

void ScanDecoder::writeAttributes(const Block& block, size_t count, uint64_t first,
                                  const ScanOutput& out) const {
  for (size_t a = 0; a < kAttributeCount; ++a) {
    if (!out.attributes[a]) continue;
    float* values = out.attributes[a] + first;
    const int field = fields_.attribute[a];
    if (Attribute(a) == Attribute::ScanIndex) {
      std::fill(values, values + count, float(scanIndex_));
      continue;
    }
    if (field < 0) {
      std::fill(values, values + count, kNaN);
      continue;
    }
    const double* source = block.column(field);
    const int flag = fields_.attributeInvalid[a];
    const double* invalid = flag >= 0 ? block.column(flag) : nullptr;
    const ValueScale scale =
        Attribute(a) == Attribute::Intensity ? fields_.intensityScale : ValueScale{};
    for (size_t i = 0; i < count; ++i) {
      values[i] =
          invalid && invalid[i] != 0.0 ? kNaN : float((source[i] - scale.minimum) * scale.scale);
    }
  }
}

RunResult ScanDecoder::decode(uint64_t first, uint64_t count, const glm::dvec3& origin,
                              const ScanOutput& out) const {
  Block block(columns_, columnCount_);
  RunResult result;
  for (uint64_t blockFirst = first; blockFirst < first + count; blockFirst += kBlockRecords) {
    const size_t n = size_t(std::min<uint64_t>(kBlockRecords, first + count - blockFirst));
    decodeBlock(blockFirst, n, false, block);
    Point* points = out.points + blockFirst;
    result.invalidRecords += writePositions(block, n, origin, points, result.worldBounds);
    writeColors(block, n, points);
    writeAttributes(block, n, blockFirst, out);
  }
  return result;
}

}  // namespace pcv::io::e57
