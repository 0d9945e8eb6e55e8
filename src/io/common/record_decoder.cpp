#include "record_decoder.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <limits>
#include <mutex>

#include "color_values.hpp"
#include "pcv/core/parallel.hpp"

namespace pcv::io {
namespace {

/// loadScalar, inlined for the types files use most: it runs for every field of every point, and
/// a call each cost as much as the conversion (the switch takes the same branch point after
/// point).
inline double loadField(const uint8_t* p, ScalarType type, bool bigEndian) {
  if (!bigEndian) {
    switch (type) {
      case ScalarType::UInt8:
        return double(*p);
      case ScalarType::UInt16:
        return double(loadLe<uint16_t>(p));
      case ScalarType::Int32:
        return double(loadLe<int32_t>(p));
      case ScalarType::Float32:
        return double(loadLe<float>(p));
      case ScalarType::Float64:
        return loadLe<double>(p);
      default:
        break;
    }
  }
  return io::loadScalar(p, type, bigEndian);
}

/// 8-bit signed channels ('char blue') hold the byte's bits: -1 is 255.
inline double channelValue(const uint8_t* p, const FieldLayout& field) {
  if (field.type == ScalarType::Int8) return double(*p);
  return loadField(p, field.type, field.bigEndian);
}

inline uint32_t packedBits(const uint8_t* p, const FieldLayout& field) {
  if (field.type == ScalarType::Float32) {
    return std::bit_cast<uint32_t>(loadInOrder<float>(p, field.bigEndian));
  }
  return saturatedUint32(loadField(p, field.type, field.bigEndian));
}

inline double fieldValue(const uint8_t* p, const FieldLayout& field) {
  if (field.bitMask != 0) {
    const uint64_t raw = uint64_t(loadField(p, field.type, field.bigEndian));
    return double((raw >> field.bitShift) & field.bitMask);
  }
  const double raw = loadField(p, field.type, field.bigEndian);
  if (field.hasNoData && raw == field.noData) return std::numeric_limits<double>::quiet_NaN();
  return raw * field.scale + field.offset;
}

inline const uint8_t* at(const uint8_t* data, const FieldLayout& field, uint64_t i) {
  return data + field.base + i * field.stride;
}

bool isFinite(const glm::dvec3& p) {
  return std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z);
}

/// raw * scale + offset over a column of `n` records of one little-endian type.
template <typename T>
void scaledColumn(const uint8_t* p, uint64_t stride, uint64_t n, double scale, double offset,
                  double* out) {
  for (uint64_t j = 0; j < n; ++j, p += stride) out[j] = double(loadLe<T>(p)) * scale + offset;
}

/// fieldValue for records [first, first + n) into `out`.
void fieldColumn(const uint8_t* data, const FieldLayout& f, uint64_t first, uint64_t n,
                 double* out) {
  const uint8_t* p = at(data, f, first);
  // The same values as fieldValue's, for the layouts files use most.
  if (!f.bigEndian && !f.hasNoData) {
    if (f.bitMask != 0 && f.type == ScalarType::UInt8) {
      for (uint64_t j = 0; j < n; ++j, p += f.stride)
        out[j] = double((uint32_t(*p) >> f.bitShift) & f.bitMask);
      return;
    }
    if (f.bitMask == 0) {
      switch (f.type) {
        case ScalarType::UInt8:
          return scaledColumn<uint8_t>(p, f.stride, n, f.scale, f.offset, out);
        case ScalarType::UInt16:
          return scaledColumn<uint16_t>(p, f.stride, n, f.scale, f.offset, out);
        case ScalarType::Int32:
          return scaledColumn<int32_t>(p, f.stride, n, f.scale, f.offset, out);
        case ScalarType::Float32:
          return scaledColumn<float>(p, f.stride, n, f.scale, f.offset, out);
        case ScalarType::Float64:
          return scaledColumn<double>(p, f.stride, n, f.scale, f.offset, out);
        default:
          break;
      }
    }
  }
  for (uint64_t j = 0; j < n; ++j, p += f.stride) out[j] = fieldValue(p, f);
}

/// channelValue for records [first, first + n) into `out`.
void channelColumn(const uint8_t* data, const FieldLayout& f, uint64_t first, uint64_t n,
                   double* out) {
  const uint8_t* p = at(data, f, first);
  // channelValue's values: no scale or offset, and signed bytes as their bits.
  if (f.type == ScalarType::Int8 || f.type == ScalarType::UInt8) {
    for (uint64_t j = 0; j < n; ++j, p += f.stride) out[j] = double(*p);
    return;
  }
  if (!f.bigEndian && f.type == ScalarType::UInt16) {
    for (uint64_t j = 0; j < n; ++j, p += f.stride) out[j] = double(loadLe<uint16_t>(p));
    return;
  }
  for (uint64_t j = 0; j < n; ++j, p += f.stride) out[j] = channelValue(p, f);
}

}  // namespace

RecordDecoder::RecordDecoder(const RecordLayout& layout, const ReadContext& context)
    : attributeNames_(layout.attributeNames) {
  attributeTypes_ = layout.attributeTypes;
  attributeTypes_.resize(attributeNames_.size(), AttributeType::Float32);
  for (const FieldLayout& field : layout.fields) {
    switch (field.role) {
      case FieldRole::X:
      case FieldRole::Y:
      case FieldRole::Z:
        axis_[int(field.role)] = field;
        hasAxis_[int(field.role)] = true;
        break;
      case FieldRole::Red:
      case FieldRole::Green:
      case FieldRole::Blue:
        channels_[int(field.role) - int(FieldRole::Red)] = field;
        channelsSeen_ |= 1u << (int(field.role) - int(FieldRole::Red));
        break;
      case FieldRole::PackedRgb:
        packed_ = field;
        hasPacked_ = true;
        break;
      case FieldRole::Attribute:
        attributes_.push_back(field);
        wideAttributes_.push_back(isWideAttributeType(attributeTypes_[size_t(field.attribute)]));
        break;
      default:
        break;
    }
  }
  if (!hasAxis_[0] || !hasAxis_[1]) context.fail("no x and y coordinates among the fields");
}

glm::dvec3 RecordDecoder::worldPosition(const uint8_t* data, uint64_t i) const {
  glm::dvec3 p(0.0);
  for (int a = 0; a < 3; ++a) {
    if (hasAxis_[a]) p[a] = fieldValue(at(data, axis_[a], i), axis_[a]);
  }
  return p;
}

glm::dvec3 RecordDecoder::originOf(const uint8_t* data, uint64_t count) const {
  for (uint64_t i = 0; i < count; ++i) {
    const glm::dvec3 p = worldPosition(data, i);
    if (isFinite(p)) return originNear(p);
  }
  return glm::dvec3(0.0);
}

bool RecordDecoder::needsChannelScale() const {
  return hasChannels() && channels_[0].type != ScalarType::UInt8 &&
         channels_[0].type != ScalarType::Int8;
}

double RecordDecoder::maxChannelValue(const uint8_t* data, uint64_t count) const {
  if (!hasChannels()) return 0.0;
  std::atomic<uint64_t> maxBits{0};
  parallelFor(count, [&](uint64_t begin, uint64_t end) {
    double localMax = 0.0;
    for (uint64_t i = begin; i < end; ++i) {
      for (const FieldLayout& c : channels_)
        localMax = std::max(localMax, channelValue(at(data, c, i), c));
    }
    // Non-negative doubles order like their bit patterns.
    const uint64_t bits = std::bit_cast<uint64_t>(localMax);
    uint64_t seen = maxBits.load();
    while (bits > seen && !maxBits.compare_exchange_weak(seen, bits)) {
    }
  });
  return std::bit_cast<double>(maxBits.load());
}

PointCloud RecordDecoder::describeCloud() const {
  PointCloud cloud;
  cloud.hasColor = hasColor();
  for (size_t a = 0; a < attributeNames_.size(); ++a) {
    cloud.attributes.push_back({attributeNames_[a], {}, attributeTypes_[a], {}});
  }
  return cloud;
}

PointCloud RecordDecoder::allocateCloud(uint64_t count, const glm::dvec3& origin,
                                        const ReadContext& context) const {
  // Wide attributes take two floats' room.
  size_t attributeFloats = 0;
  for (const AttributeType type : attributeTypes_)
    attributeFloats += isWideAttributeType(type) ? 2 : 1;
  context.requireMemoryForPoints(count, attributeFloats);
  // Uninitialised: decode() writes every point and value, so each thread takes the page faults
  // of its own chunk instead of one thread zero-filling everything first.
  PointCloud cloud;
  cloud.origin = origin;
  cloud.points.resize(count);
  cloud.hasColor = hasColor();
  cloud.attributes.resize(attributeNames_.size());
  for (size_t a = 0; a < attributeNames_.size(); ++a) {
    cloud.attributes[a].name = attributeNames_[a];
    cloud.attributes[a].type = attributeTypes_[a];
    cloud.attributes[a].resize(count);
  }
  return cloud;
}

uint32_t RecordDecoder::colorOf(const uint8_t* data, uint64_t i) const {
  if (hasChannels()) {
    uint32_t rgb[3];
    for (int c = 0; c < 3; ++c) {
      rgb[c] = channelByte(channelValue(at(data, channels_[c], i), channels_[c]), channelScale_);
    }
    return packRgba(rgb[0], rgb[1], rgb[2]);
  }
  if (hasPacked_) return rgbFromPacked(packedBits(at(data, packed_, i), packed_));
  return packRgba(255, 255, 255);
}

Box3d RecordDecoder::decode(const uint8_t* data, uint64_t begin, uint64_t end, PointCloud& cloud,
                            uint64_t firstPoint) const {
  // Field by field over blocks of records: each field's type and layout is looked at once a
  // block instead of once a point, and its loop is one load and one conversion (point by point,
  // this conversion took a seventh of a streamed LAZ node's decode; now a sixteenth).
  Box3d bounds;
  const glm::dvec3 origin = cloud.origin;
  double world[3][kBlockRecords];
  double values[kBlockRecords];
  uint32_t colors[kBlockRecords];
  for (uint64_t first = begin; first < end; first += kBlockRecords) {
    const uint64_t n = std::min<uint64_t>(kBlockRecords, end - first);
    for (int a = 0; a < 3; ++a) {
      if (hasAxis_[a]) {
        fieldColumn(data, axis_[a], first, n, world[a]);
      } else {
        std::fill_n(world[a], n, 0.0);
      }
    }
    colorColumn(data, first, n, colors);
    Point* points = cloud.points.data() + firstPoint + (first - begin);
    for (uint64_t j = 0; j < n; ++j) {
      const glm::dvec3 p(world[0][j], world[1][j], world[2][j]);
      if (isFinite(p)) bounds.extend(p);
      const glm::dvec3 local = p - origin;
      points[j] = {float(local.x), float(local.y), float(local.z), colors[j]};
    }
    for (size_t k = 0; k < attributes_.size(); ++k) {
      const FieldLayout& f = attributes_[k];
      fieldColumn(data, f, first, n, values);
      ScalarAttribute& attribute = cloud.attributes[f.attribute];
      const uint64_t out = firstPoint + (first - begin);
      if (wideAttributes_[k]) {
        std::copy_n(values, n, attribute.wideValues.begin() + ptrdiff_t(out));
      } else {
        float* narrow = attribute.values.data() + out;
        for (uint64_t j = 0; j < n; ++j) narrow[j] = float(values[j]);
      }
    }
  }
  return bounds;
}

void RecordDecoder::colorColumn(const uint8_t* data, uint64_t first, uint64_t n,
                                uint32_t* out) const {
  if (hasChannels()) {
    uint32_t bytes[3][kBlockRecords];
    double values[kBlockRecords];
    for (int c = 0; c < 3; ++c) {
      channelColumn(data, channels_[c], first, n, values);
      for (uint64_t j = 0; j < n; ++j) bytes[c][j] = channelByte(values[j], channelScale_);
    }
    for (uint64_t j = 0; j < n; ++j) out[j] = packRgba(bytes[0][j], bytes[1][j], bytes[2][j]);
    return;
  }
  for (uint64_t j = 0; j < n; ++j) out[j] = colorOf(data, first + j);
}

PointCloud decodeRecords(const RecordSource& source, const ReadContext& context,
                         Box3d& worldBounds) {
  RecordDecoder decoder(source.layout, context);
  const uint64_t count = source.count;
  // Colour channels that are not 8-bit are scaled by their maximum: 16-bit LAS colours written
  // as 0..255 exist, and so do float PLY colours in 0..255 instead of 0..1.
  if (decoder.needsChannelScale()) {
    const FieldLayout& red =
        *std::find_if(source.layout.fields.begin(), source.layout.fields.end(),
                      [](const FieldLayout& f) { return f.role == FieldRole::Red; });
    decoder.setChannelScale(colorScaleFor(red.type, decoder.maxChannelValue(source.data, count)));
  }
  PointCloud cloud = decoder.allocateCloud(count, decoder.originOf(source.data, count), context);

  // Consecutive slices, each decoded in parallel, so a viewer can show the finished prefix while
  // the rest decodes. Few and large: each costs one fork/join of the workers (25 % of the speed
  // on 16 cores with 16 slices), so only a reader with a listener slices, and small files (under
  // two slices' worth) stay a single pass.
  constexpr uint64_t kMaxSlices = 16;
  constexpr uint64_t kMinSlicePoints = 1 << 18;
  constexpr uint64_t kProgressStep = 1 << 16;  // points between progress updates
  LoadProgress* progress = context.progress;
  const bool publishes = progress != nullptr && progress->onPrefix;
  const uint64_t sliceCount =
      publishes ? std::clamp<uint64_t>(count / kMinSlicePoints, 1, kMaxSlices) : 1;
  std::mutex boundsMutex;
  for (uint64_t slice = 0; slice < sliceCount; ++slice) {
    const uint64_t sliceBegin = count * slice / sliceCount;
    const uint64_t sliceEnd = count * (slice + 1) / sliceCount;
    parallelFor(sliceEnd - sliceBegin, [&](uint64_t begin, uint64_t end) {
      Box3d local;
      for (uint64_t block = sliceBegin + begin; block < sliceBegin + end; block += kProgressStep) {
        const uint64_t blockEnd = std::min(sliceBegin + end, block + kProgressStep);
        local.extend(decoder.decode(source.data, block, blockEnd, cloud, block));
        context.advance((blockEnd - block) * source.layout.bytesPerPoint);
      }
      const std::lock_guard lock(boundsMutex);
      worldBounds.extend(local);
    });
    // parallelFor has joined its workers: points [0, sliceEnd) are written and visible here.
    if (progress) {
      progress->pointsReady.store(sliceEnd, std::memory_order_release);
      if (progress->onPrefix) {
        progress->onPrefix(PointPrefix{std::span<const Point>(cloud.points.data(), sliceEnd),
                                       cloud.origin, cloud.hasColor});
      }
    }
  }
  return cloud;
}

}  // namespace pcv::io
