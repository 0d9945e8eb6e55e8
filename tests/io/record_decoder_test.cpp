// The record decoder against values computed here, field by field: scaled integer and float
// coordinates, a big-endian one, 16-bit colour channels, bit fields, a no-data value, a wide
// attribute; over more records than one of its blocks, from an offset, into a cloud at an offset.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "common/byte_order.hpp"
#include "common/record_decoder.hpp"

namespace pcv::io {
namespace {

constexpr uint64_t kStride = 40;
constexpr uint64_t kRecords = 1000;  // several of the decoder's blocks, and a part of one

struct Expected {
  double x, y, z;
  uint32_t rgba;
  float intensity, returnNumber, returns, height;
  double gpsTime;
};

/// Record i: x Int32 at 0 (scale 0.01, offset 100), y UInt16 at 4, z big-endian Float64 at 6,
/// red/green/blue UInt16 at 14/16/18, intensity UInt16 at 20, returns byte at 22 (bits 0-2 the
/// return number, 3-5 the count), height Float32 at 23 with -9999 for no data, gps time Float64
/// at 27.
void writeRecord(uint8_t* r, uint64_t i, Expected& e) {
  const int32_t rawX = int32_t(i * 37) - 5000;
  storeLe<int32_t>(r, rawX);
  e.x = double(rawX) * 0.01 + 100.0;
  const uint16_t rawY = uint16_t(i * 61);
  storeLe<uint16_t>(r + 4, rawY);
  e.y = double(rawY);
  e.z = i == 7 ? std::numeric_limits<double>::infinity() : double(i) * 0.5 - 3.25;
  uint64_t bits = 0;
  std::memcpy(&bits, &e.z, 8);
  for (int b = 0; b < 8; ++b) r[6 + b] = uint8_t(bits >> (56 - 8 * b));
  const uint16_t red = uint16_t(i * 257), green = uint16_t(65535 - i), blue = uint16_t(i * 3);
  storeLe<uint16_t>(r + 14, red);
  storeLe<uint16_t>(r + 16, green);
  storeLe<uint16_t>(r + 18, blue);
  // 16-bit channels scaled by 255 / 65535 and rounded.
  const auto byteOf = [](uint16_t v) {
    const double scaled = double(v) * (255.0 / 65535.0);
    return scaled >= 255.0 ? 255u : uint32_t(scaled + 0.5);
  };
  e.rgba = packRgba(byteOf(red), byteOf(green), byteOf(blue));
  storeLe<uint16_t>(r + 20, uint16_t(i * 7));
  e.intensity = float(i * 7 % 65536);
  const uint8_t returns = uint8_t((i % 5 + 1) | ((i % 7) << 3));
  r[22] = returns;
  e.returnNumber = float(i % 5 + 1);
  e.returns = float(i % 7);
  const float height = i % 3 == 0 ? -9999.0f : float(i) * 0.25f;
  storeLe<float>(r + 23, height);
  e.height = i % 3 == 0 ? std::numeric_limits<float>::quiet_NaN() : height;
  e.gpsTime = 1.0e9 + double(i) * 1.0e-6;
  storeLe<double>(r + 27, e.gpsTime);
}

FieldLayout field(ScalarType type, FieldRole role, uint64_t base, int attribute = -1) {
  FieldLayout f;
  f.type = type;
  f.role = role;
  f.base = base;
  f.stride = kStride;
  f.attribute = attribute;
  return f;
}

TEST(RecordDecoder, DecodesEveryFieldAsItsLayoutSays) {
  std::vector<uint8_t> records(kRecords * kStride, 0);
  std::vector<Expected> expected(kRecords);
  for (uint64_t i = 0; i < kRecords; ++i) writeRecord(records.data() + i * kStride, i, expected[i]);

  RecordLayout layout;
  FieldLayout x = field(ScalarType::Int32, FieldRole::X, 0);
  x.scale = 0.01;
  x.offset = 100.0;
  layout.fields.push_back(x);
  layout.fields.push_back(field(ScalarType::UInt16, FieldRole::Y, 4));
  FieldLayout z = field(ScalarType::Float64, FieldRole::Z, 6);
  z.bigEndian = true;
  layout.fields.push_back(z);
  layout.fields.push_back(field(ScalarType::UInt16, FieldRole::Red, 14));
  layout.fields.push_back(field(ScalarType::UInt16, FieldRole::Green, 16));
  layout.fields.push_back(field(ScalarType::UInt16, FieldRole::Blue, 18));
  layout.fields.push_back(field(ScalarType::UInt16, FieldRole::Attribute, 20, 0));
  FieldLayout returnNumber = field(ScalarType::UInt8, FieldRole::Attribute, 22, 1);
  returnNumber.bitMask = 7;
  layout.fields.push_back(returnNumber);
  FieldLayout returns = returnNumber;
  returns.attribute = 2;
  returns.bitShift = 3;
  layout.fields.push_back(returns);
  FieldLayout height = field(ScalarType::Float32, FieldRole::Attribute, 23, 3);
  height.hasNoData = true;
  height.noData = -9999.0;
  layout.fields.push_back(height);
  layout.fields.push_back(field(ScalarType::Float64, FieldRole::Attribute, 27, 4));
  layout.attributeNames = {"intensity", "return_number", "number_of_returns", "height", "gps_time"};
  layout.attributeTypes = {AttributeType::UInt16, AttributeType::UInt8, AttributeType::UInt8,
                           AttributeType::Float32, AttributeType::Float64};

  const ReadContext context{.file = "records"};
  RecordDecoder decoder(layout, context);
  ASSERT_TRUE(decoder.needsChannelScale());
  decoder.setChannelScale(255.0 / 65535.0);
  constexpr uint64_t kBegin = 3, kEnd = kRecords - 2, kFirstPoint = 5;
  const glm::dvec3 origin(100.0, 0.0, 0.0);
  PointCloud cloud = decoder.allocateCloud(kFirstPoint + kEnd - kBegin, origin, context);
  const Box3d bounds = decoder.decode(records.data(), kBegin, kEnd, cloud, kFirstPoint);

  Box3d expectedBounds;
  for (uint64_t i = kBegin; i < kEnd; ++i) {
    SCOPED_TRACE("record " + std::to_string(i));
    const Expected& e = expected[i];
    const Point& p = cloud.points[kFirstPoint + i - kBegin];
    const glm::dvec3 world(e.x, e.y, e.z);
    if (std::isfinite(e.z)) expectedBounds.extend(world);
    EXPECT_EQ(p.x, float(e.x - origin.x));
    EXPECT_EQ(p.y, float(e.y - origin.y));
    EXPECT_EQ(p.z, float(e.z - origin.z));
    EXPECT_EQ(p.rgba, e.rgba);
    const uint64_t at = kFirstPoint + i - kBegin;
    EXPECT_EQ(cloud.attributes[0].value(at), e.intensity);
    EXPECT_EQ(cloud.attributes[1].value(at), e.returnNumber);
    EXPECT_EQ(cloud.attributes[2].value(at), e.returns);
    if (std::isnan(e.height)) {
      EXPECT_TRUE(std::isnan(cloud.attributes[3].value(at)));
    } else {
      EXPECT_EQ(cloud.attributes[3].value(at), e.height);
    }
    EXPECT_EQ(cloud.attributes[4].value(at), e.gpsTime);  // wide: every bit kept
  }
  // The record whose z is infinite is drawn nowhere and bounds nothing.
  EXPECT_EQ(bounds.min, expectedBounds.min);
  EXPECT_EQ(bounds.max, expectedBounds.max);
}

}  // namespace
}  // namespace pcv::io
