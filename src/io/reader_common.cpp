#include "reader_common.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>

#include "pcv/core/parallel.hpp"

namespace pcv::io {

void ReadContext::failAt(uint64_t byteOffset, const std::string& what) const {
  throw InputError(file + ": byte " + std::to_string(byteOffset) + ": " + what);
}

void ReadContext::failAtLine(uint64_t line, const std::string& what) const {
  throw InputError(file + ": line " + std::to_string(line) + ": " + what);
}

void ReadContext::fail(const std::string& what) const {
  throw InputError(file + ": " + what);
}

void ReadContext::advance(uint64_t bytes) const {
  if (!progress) return;
  progress->bytesDone.fetch_add(bytes, std::memory_order_relaxed);
  if (progress->cancel.load(std::memory_order_relaxed)) {
    throw LoadCancelled(file + ": loading cancelled");
  }
}

size_t scalarSize(ScalarType type) {
  switch (type) {
    case ScalarType::Int8:
    case ScalarType::UInt8:
      return 1;
    case ScalarType::Int16:
    case ScalarType::UInt16:
      return 2;
    case ScalarType::Int32:
    case ScalarType::UInt32:
    case ScalarType::Float32:
      return 4;
    case ScalarType::Int64:
    case ScalarType::UInt64:
    case ScalarType::Float64:
      return 8;
  }
  return 0;
}

bool isFloatType(ScalarType type) {
  return type == ScalarType::Float32 || type == ScalarType::Float64;
}

const char* scalarTypeName(ScalarType type) {
  static const char* names[] = {"int8",   "uint8", "int16",  "uint16",  "int32",
                                "uint32", "int64", "uint64", "float32", "float64"};
  return names[int(type)];
}

double loadScalar(const uint8_t* p, ScalarType type, bool bigEndian) {
  switch (type) {
    case ScalarType::Int8:
      return double(int8_t(*p));
    case ScalarType::UInt8:
      return double(*p);
    case ScalarType::Int16:
      return loadUnaligned<int16_t>(p, bigEndian);
    case ScalarType::UInt16:
      return loadUnaligned<uint16_t>(p, bigEndian);
    case ScalarType::Int32:
      return loadUnaligned<int32_t>(p, bigEndian);
    case ScalarType::UInt32:
      return loadUnaligned<uint32_t>(p, bigEndian);
    case ScalarType::Int64:
      return double(loadUnaligned<int64_t>(p, bigEndian));
    case ScalarType::UInt64:
      return double(loadUnaligned<uint64_t>(p, bigEndian));
    case ScalarType::Float32:
      return loadUnaligned<float>(p, bigEndian);
    case ScalarType::Float64:
      return loadUnaligned<double>(p, bigEndian);
  }
  return 0.0;
}

glm::dvec3 originNear(const glm::dvec3& world) {
  // Whole units keep the origin exact in any decimal notation and cost nothing in precision: the
  // remainder below one unit is well inside a float's 24 bits.
  return glm::dvec3(std::round(world.x), std::round(world.y), std::round(world.z));
}

double colourScaleFor(ScalarType type, double maxValue) {
  if (type == ScalarType::UInt8 || type == ScalarType::Int8) return 1.0;
  if (isFloatType(type) && maxValue <= 1.0) return 255.0;
  if (maxValue <= 255.0) return 1.0;
  return 255.0 / 65535.0;
}

namespace {

inline uint32_t toByte(double value, double scale) {
  const double scaled = value * scale;
  // NaN fails both comparisons and ends as 0.
  if (!(scaled > 0.0)) return 0;
  if (scaled >= 255.0) return 255;
  return uint32_t(scaled + 0.5);
}

/// 8-bit signed channels ('char blue') hold the byte's bits: -1 is 255.
inline double channelValue(const uint8_t* p, const FieldLayout& field) {
  if (field.type == ScalarType::Int8) return double(*p);
  return loadScalar(p, field.type, field.bigEndian);
}

/// A packed-colour value as 32 bits: NaN is 0 and the rest saturates, because converting a
/// double outside 0 .. 2^32-1 (a malformed file's) to uint32_t is undefined.
inline uint32_t saturatedUint32(double value) {
  if (!(value > 0.0)) return 0;
  return value >= 4294967295.0 ? 0xffffffffu : uint32_t(value);
}

inline uint32_t packedBits(const uint8_t* p, const FieldLayout& field) {
  if (field.type == ScalarType::Float32) {
    return std::bit_cast<uint32_t>(loadUnaligned<float>(p, field.bigEndian));
  }
  return saturatedUint32(loadScalar(p, field.type, field.bigEndian));
}

inline uint32_t rgbFromPacked(uint32_t bits) {
  return packRgba((bits >> 16) & 0xffu, (bits >> 8) & 0xffu, bits & 0xffu);
}

inline double fieldValue(const uint8_t* p, const FieldLayout& field) {
  if (field.bitMask != 0) {
    const uint64_t raw = uint64_t(loadScalar(p, field.type, field.bigEndian));
    return double((raw >> field.bitShift) & field.bitMask);
  }
  return loadScalar(p, field.type, field.bigEndian) * field.scale + field.offset;
}

}  // namespace

PointCloud decodeRecords(const RecordSource& source, const ReadContext& context) {
  PointCloud cloud;
  const FieldLayout* axis[3] = {nullptr, nullptr, nullptr};
  std::vector<const FieldLayout*> channels, packed, attributes;
  for (const FieldLayout& field : source.fields) {
    switch (field.role) {
      case FieldRole::X:
        axis[0] = &field;
        break;
      case FieldRole::Y:
        axis[1] = &field;
        break;
      case FieldRole::Z:
        axis[2] = &field;
        break;
      case FieldRole::Red:
      case FieldRole::Green:
      case FieldRole::Blue:
        channels.push_back(&field);
        break;
      case FieldRole::PackedRgb:
        packed.push_back(&field);
        break;
      case FieldRole::Attribute:
        attributes.push_back(&field);
        break;
      default:
        break;
    }
  }
  if (!axis[0] || !axis[1]) context.fail("no x and y coordinates among the fields");

  const uint64_t count = source.count;
  const uint8_t* data = source.data;
  auto world = [&](uint64_t i) {
    glm::dvec3 p(0.0);
    for (int a = 0; a < 3; ++a) {
      if (axis[a]) p[a] = fieldValue(data + axis[a]->base + i * axis[a]->stride, *axis[a]);
    }
    return p;
  };
  for (uint64_t i = 0; i < count; ++i) {
    const glm::dvec3 p = world(i);
    if (std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z)) {
      cloud.origin = originNear(p);
      break;
    }
  }

  // Colour channels that are not 8-bit are scaled by their maximum: 16-bit LAS colours written
  // as 0..255 exist, and so do float PLY colours in 0..255 instead of 0..1.
  double channelScale = 1.0;
  const bool hasChannels = channels.size() == 3;
  if (hasChannels && channels[0]->type != ScalarType::UInt8 &&
      channels[0]->type != ScalarType::Int8) {
    std::atomic<uint64_t> maxBits{0};
    parallelFor(count, [&](uint64_t begin, uint64_t end) {
      double localMax = 0.0;
      for (uint64_t i = begin; i < end; ++i) {
        for (const FieldLayout* c : channels) {
          const double v = channelValue(data + c->base + i * c->stride, *c);
          if (v > localMax) localMax = v;
        }
      }
      // Non-negative doubles order like their bit patterns.
      uint64_t bits = std::bit_cast<uint64_t>(localMax);
      uint64_t seen = maxBits.load();
      while (bits > seen && !maxBits.compare_exchange_weak(seen, bits)) {
      }
    });
    channelScale = colourScaleFor(channels[0]->type, std::bit_cast<double>(maxBits.load()));
  }

  // Uninitialised: the parallel pass below writes every point and value, so each thread takes
  // the page faults of its own chunk instead of one thread zero-filling everything first.
  cloud.points.resize(count);
  cloud.hasColor = hasChannels || !packed.empty();
  cloud.attributes.resize(source.attributeNames.size());
  for (size_t a = 0; a < source.attributeNames.size(); ++a) {
    cloud.attributes[a].name = source.attributeNames[a];
    cloud.attributes[a].values.resize(count);
  }

  const glm::dvec3 origin = cloud.origin;
  constexpr uint64_t kProgressStep = 1 << 16;  // points between progress updates
  // Consecutive slices, each decoded in parallel, so a viewer can show the finished prefix while
  // the rest decodes. Few and large: each costs one fork/join of the workers (25 % of the speed
  // on 16 cores with 16 slices), so only a reader with a listener slices, and small files (under
  // two slices' worth) stay a single pass.
  constexpr uint64_t kMaxSlices = 16;
  constexpr uint64_t kMinSlicePoints = 1 << 18;
  const bool publishes = context.progress != nullptr && context.progress->onPrefix;
  const uint64_t sliceCount =
      publishes ? std::clamp<uint64_t>(count / kMinSlicePoints, 1, kMaxSlices) : 1;
  auto decodeRange = [&](uint64_t begin, uint64_t end) {
    for (uint64_t blockBegin = begin; blockBegin < end; blockBegin += kProgressStep) {
      const uint64_t blockEnd = std::min(end, blockBegin + kProgressStep);
      for (uint64_t i = blockBegin; i < blockEnd; ++i) {
        const glm::dvec3 p = world(i) - origin;
        Point& out = cloud.points[i];
        out.x = float(p.x);
        out.y = float(p.y);
        out.z = float(p.z);
        if (hasChannels) {
          const uint32_t r =
              toByte(channelValue(data + channels[0]->base + i * channels[0]->stride, *channels[0]),
                     channelScale);
          const uint32_t g =
              toByte(channelValue(data + channels[1]->base + i * channels[1]->stride, *channels[1]),
                     channelScale);
          const uint32_t b =
              toByte(channelValue(data + channels[2]->base + i * channels[2]->stride, *channels[2]),
                     channelScale);
          out.rgba = packRgba(r, g, b);
        } else if (!packed.empty()) {
          out.rgba =
              rgbFromPacked(packedBits(data + packed[0]->base + i * packed[0]->stride, *packed[0]));
        } else {
          out.rgba = packRgba(255, 255, 255);
        }
        for (const FieldLayout* f : attributes) {
          cloud.attributes[f->attribute].values[i] =
              float(fieldValue(data + f->base + i * f->stride, *f));
        }
      }
      context.advance((blockEnd - blockBegin) * source.bytesPerPoint);
    }
  };
  for (uint64_t slice = 0; slice < sliceCount; ++slice) {
    const uint64_t sliceBegin = count * slice / sliceCount;
    const uint64_t sliceEnd = count * (slice + 1) / sliceCount;
    parallelFor(sliceEnd - sliceBegin, [&](uint64_t begin, uint64_t end) {
      decodeRange(sliceBegin + begin, sliceBegin + end);
    });
    // parallelFor has joined its workers: points [0, sliceEnd) are written and visible here.
    if (LoadProgress* progress = context.progress) {
      progress->pointsReady.store(sliceEnd, std::memory_order_release);
      if (progress->onPrefix) {
        progress->onPrefix(PointPrefix{std::span<const Point>(cloud.points.data(), sliceEnd),
                                       cloud.origin, cloud.hasColor});
      }
    }
  }
  return cloud;
}

TextRowAssembler::TextRowAssembler(std::vector<FieldRole> roles, std::vector<ScalarType> types,
                                   std::vector<int> attributeOfColumn,
                                   std::vector<std::string> attributeNames)
    : roles_(std::move(roles)),
      types_(std::move(types)),
      attributeOfColumn_(std::move(attributeOfColumn)) {
  for (auto& name : attributeNames) cloud_.attributes.push_back({std::move(name), {}});
  for (size_t c = 0; c < roles_.size(); ++c) {
    if (roles_[c] == FieldRole::Red || roles_[c] == FieldRole::Green ||
        roles_[c] == FieldRole::Blue) {
      hasChannels_ = true;
      channelType_ = types_[c];
    }
    if (roles_[c] == FieldRole::PackedRgb) hasPacked_ = true;
  }
}

void TextRowAssembler::reserve(uint64_t points) {
  cloud_.points.reserve(points);
  if (hasChannels_) channels_.reserve(points * 4);
  if (hasPacked_) packed_.reserve(points);
  for (auto& attribute : cloud_.attributes) attribute.values.reserve(points);
}

void TextRowAssembler::addRow(const double* values) {
  glm::dvec3 p(0.0);
  float channel[4] = {0.0f, 0.0f, 0.0f, 255.0f};
  uint32_t packedColour = packRgba(255, 255, 255);
  for (size_t c = 0; c < roles_.size(); ++c) {
    const double v = values[c];
    switch (roles_[c]) {
      case FieldRole::X:
        p.x = v;
        break;
      case FieldRole::Y:
        p.y = v;
        break;
      case FieldRole::Z:
        p.z = v;
        break;
      case FieldRole::Red:
      case FieldRole::Green:
      case FieldRole::Blue: {
        // Signed 8-bit channels hold the byte's bits.
        const double channelValue = (types_[c] == ScalarType::Int8 && v < 0) ? v + 256.0 : v;
        channel[int(roles_[c]) - int(FieldRole::Red)] = float(channelValue);
        channelMax_ = std::max(channelMax_, channelValue);
        break;
      }
      case FieldRole::PackedRgb: {
        const uint32_t bits = types_[c] == ScalarType::Float32
                                  ? std::bit_cast<uint32_t>(float(v))
                                  : saturatedUint32(v);
        packedColour = rgbFromPacked(bits);
        break;
      }
      case FieldRole::Attribute:
        cloud_.attributes[attributeOfColumn_[c]].values.push_back(float(v));
        break;
      default:
        break;
    }
  }
  if (!haveOrigin_ && std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z)) {
    cloud_.origin = originNear(p);
    haveOrigin_ = true;
  }
  const glm::dvec3 local = p - cloud_.origin;
  cloud_.points.push_back({float(local.x), float(local.y), float(local.z), packedColour});
  if (hasChannels_) channels_.insert(channels_.end(), channel, channel + 4);
}

PointCloud TextRowAssembler::finish() {
  if (hasChannels_) {
    const double scale = colourScaleFor(channelType_, channelMax_);
    for (size_t i = 0; i < cloud_.points.size(); ++i) {
      const float* c = &channels_[i * 4];
      cloud_.points[i].rgba =
          packRgba(toByte(c[0], scale), toByte(c[1], scale), toByte(c[2], scale));
    }
  }
  // Points parsed before the first finite one were made relative to origin 0.
  cloud_.hasColor = hasChannels_ || hasPacked_;
  channels_ = {};
  return std::move(cloud_);
}

uint64_t dropNonFinitePoints(PointCloud& cloud) {
  auto finite = [](const Point& p) {
    return std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z);
  };
  std::atomic<uint64_t> bad{0};
  parallelFor(cloud.points.size(), [&](uint64_t begin, uint64_t end) {
    uint64_t local = 0;
    for (uint64_t i = begin; i < end; ++i) local += !finite(cloud.points[i]);
    bad += local;
  });
  if (bad == 0) return 0;
  uint64_t kept = 0;
  for (uint64_t i = 0; i < cloud.points.size(); ++i) {
    if (!finite(cloud.points[i])) continue;
    cloud.points[kept] = cloud.points[i];
    for (auto& attribute : cloud.attributes) attribute.values[kept] = attribute.values[i];
    ++kept;
  }
  cloud.points.resize(kept);
  for (auto& attribute : cloud.attributes) attribute.values.resize(kept);
  return bad;
}

std::string lowerCase(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) c = char(std::tolower(static_cast<unsigned char>(c)));
  return lower;
}

bool parseNumber(std::string_view token, double& value) {
  if (token.empty()) return false;
  if (token.front() == '+') token.remove_prefix(1);
  const char* end = token.data() + token.size();
  auto [ptr, ec] = std::from_chars(token.data(), end, value);
  if (ec == std::errc::result_out_of_range) {
    // Like strtod: overflowing literals ("1e999") read as infinity, underflowing ones as 0.
    const bool tiny =
        token.find("e-") != std::string_view::npos || token.find("E-") != std::string_view::npos;
    const double magnitude = tiny ? 0.0 : std::numeric_limits<double>::infinity();
    value = token.front() == '-' ? -magnitude : magnitude;
    return true;
  }
  return ec == std::errc() && ptr == end;
}

}  // namespace pcv::io
