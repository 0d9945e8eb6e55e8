/// @brief What the layers of a POINT14 item share: the record's fields, the return contexts, and
/// the step the returns/XY layer hands the other layers for each point. Every other layer
/// predicts only from its own fields and from that step, so a decoder may decode the returns/XY
/// layer of a chunk first, keep the steps, and decode the other layers afterwards, each on its
/// own (the GPU decoder does; see Point14Step).
#pragma once

#include <cstdint>

#include "pcv/core/host_device.hpp"
#include "record_bytes.hpp"

namespace pcv::laz {

enum Point14Layer : uint32_t {
  kReturnsXYLayer,
  kZLayer,
  kClassificationLayer,
  kFlagsLayer,
  kIntensityLayer,
  kScanAngleLayer,
  kUserDataLayer,
  kPointSourceLayer,
  kGpsTimeLayer,
  kPoint14LayerCount
};

/// The fields of a point format 6 record (byte offsets in comments).
struct Point14Fields {
  int32_t x, y, z;           ///< 0, 4, 8
  uint16_t intensity;        ///< 12
  uint8_t returnNumber;      ///< 14, low 4 bits
  uint8_t numberOfReturns;   ///< 14, high 4 bits
  uint8_t classFlags;        ///< 15, bits 0-3
  uint8_t scannerChannel;    ///< 15, bits 4-5
  uint8_t scanDirection;     ///< 15, bit 6
  uint8_t edgeOfFlightLine;  ///< 15, bit 7
  uint8_t classification;    ///< 16
  uint8_t userData;          ///< 17
  int16_t scanAngle;         ///< 18
  uint16_t pointSourceId;    ///< 20
  uint64_t gpsTime;          ///< 22, the double's bits
  bool gpsTimeChanged;       ///< codec state: the point's GPS time differed from the last

  PCV_HOST_DEVICE void load(const uint8_t* item) {
    x = loadLe<int32_t>(item);
    y = loadLe<int32_t>(item + 4);
    z = loadLe<int32_t>(item + 8);
    intensity = loadLe<uint16_t>(item + 12);
    returnNumber = item[14] & 0x0F;
    numberOfReturns = item[14] >> 4;
    classFlags = item[15] & 0x0F;
    scannerChannel = (item[15] >> 4) & 3;
    scanDirection = (item[15] >> 6) & 1;
    edgeOfFlightLine = item[15] >> 7;
    classification = item[16];
    userData = item[17];
    scanAngle = loadLe<int16_t>(item + 18);
    pointSourceId = loadLe<uint16_t>(item + 20);
    gpsTime = loadLe<uint64_t>(item + 22);
    gpsTimeChanged = false;
  }
  PCV_HOST_DEVICE void store(uint8_t* item) const {
    storeLe(item, x);
    storeLe(item + 4, y);
    storeLe(item + 8, z);
    storeLe(item + 12, intensity);
    item[14] = uint8_t(returnNumber | (numberOfReturns << 4));
    item[15] = flagsByte(scannerChannel);
    item[16] = classification;
    item[17] = userData;
    storeLe(item + 18, scanAngle);
    storeLe(item + 20, pointSourceId);
    storeLe(item + 22, gpsTime);
  }
  /// Edge, scan direction and the four class flags, as the flags layer codes them.
  PCV_HOST_DEVICE uint32_t flags() const {
    return (uint32_t(edgeOfFlightLine) << 5) | (uint32_t(scanDirection) << 4) | classFlags;
  }
  PCV_HOST_DEVICE void setFlags(uint32_t flags) {
    edgeOfFlightLine = uint8_t((flags >> 5) & 1);
    scanDirection = uint8_t((flags >> 4) & 1);
    classFlags = uint8_t(flags & 0x0F);
  }
  /// Record byte 15: the class flags, scan direction and edge around `channel`.
  PCV_HOST_DEVICE uint8_t flagsByte(uint32_t channel) const {
    return uint8_t(classFlags | (channel << 4) | (scanDirection << 6) | (edgeOfFlightLine << 7));
  }
};

/// Return map for up to 15 returns, by [number of returns][return number], folded to 6 contexts.
PCV_HOST_DEVICE inline uint32_t point14ReturnMap(uint32_t n, uint32_t r) {
  static constexpr uint8_t kMap[16][16] = {{0, 1, 2, 3, 4, 5, 3, 4, 4, 5, 5, 5, 5, 5, 5, 5},
                                    {1, 0, 1, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3},
                                    {2, 1, 2, 4, 4, 4, 4, 4, 4, 4, 4, 3, 3, 3, 3, 3},
                                    {3, 3, 4, 5, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4},
                                    {4, 3, 4, 4, 5, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4},
                                    {5, 3, 4, 4, 4, 5, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4},
                                    {3, 3, 4, 4, 4, 4, 5, 4, 4, 4, 4, 4, 4, 4, 4, 4},
                                    {4, 3, 4, 4, 4, 4, 4, 5, 4, 4, 4, 4, 4, 4, 4, 4},
                                    {4, 3, 4, 4, 4, 4, 4, 4, 5, 4, 4, 4, 4, 4, 4, 4},
                                    {5, 3, 4, 4, 4, 4, 4, 4, 4, 5, 4, 4, 4, 4, 4, 4},
                                    {5, 3, 4, 4, 4, 4, 4, 4, 4, 4, 5, 4, 4, 4, 4, 4},
                                    {5, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 4, 4, 4},
                                    {5, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 4, 4},
                                    {5, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 4},
                                    {5, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5},
                                    {5, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 5, 5}};
  return kMap[n][r];
}

/// Return level |n - r|, capped at 7.
PCV_HOST_DEVICE inline uint32_t point14ReturnLevel(uint32_t n, uint32_t r) {
  const uint32_t level = n > r ? n - r : r - n;
  return level < 7 ? level : 7;
}

/// Bits of the change symbol of the returns/XY layer.
inline constexpr uint32_t kChannelChanged = 1u << 6;
inline constexpr uint32_t kPointSourceChanged = 1u << 5;
inline constexpr uint32_t kGpsTimeChanged = 1u << 4;
inline constexpr uint32_t kScanAngleChanged = 1u << 3;
inline constexpr uint32_t kReturnCountChanged = 1u << 2;
/// Low two bits: return number same (0), +1 (1), -1 (2), other (3), modulo 16.

/// What the returns/XY layer decodes for one point that the other layers predict from. Packed
/// into 32 bits so that a decoder can keep one per point between its two passes:
///   | 0-6 change symbol | 8-11 n | 12-15 r | 16-17 channel | 18-19 others' channel |
///   | 20 starts channel | 24-28 z context |
struct Point14Step {
  uint32_t changed;        ///< the change symbol
  uint32_t n, r;           ///< number of returns, return number
  uint32_t level;          ///< return level, 0-7
  uint32_t kind;           ///< single 3, first 2, last 1, intermediate 0
  bool gpsChanged;         ///< the GPS time changed (the change symbol's bit)
  uint32_t channel;        ///< the point's scanner channel: whose contexts code it
  uint32_t othersChannel;  ///< the channel the items after POINT14 follow (see Point14Codec)
  /// The point is its channel's first in the chunk: the channel's contexts start from the last
  /// point of the channel before.
  bool startsChannel;
  uint32_t zContext;  ///< the z layer's magnitude context, from the k of x and y

  PCV_HOST_DEVICE static Point14Step of(uint32_t changed, uint32_t n, uint32_t r) {
    Point14Step s{};
    s.changed = changed;
    s.n = n;
    s.r = r;
    s.level = point14ReturnLevel(n, r);
    s.kind = (r == 1 ? 2u : 0u) + (r >= n ? 1u : 0u);
    s.gpsChanged = (changed & kGpsTimeChanged) != 0;
    return s;
  }

  PCV_HOST_DEVICE uint32_t packed() const {
    return changed | (n << 8) | (r << 12) | (channel << 16) | (othersChannel << 18) |
           (uint32_t(startsChannel) << 20) | (zContext << 24);
  }
  PCV_HOST_DEVICE static Point14Step unpack(uint32_t bits) {
    Point14Step s = of(bits & 0x7Fu, (bits >> 8) & 15u, (bits >> 12) & 15u);
    s.channel = (bits >> 16) & 3u;
    s.othersChannel = (bits >> 18) & 3u;
    s.startsChannel = ((bits >> 20) & 1u) != 0;
    s.zContext = (bits >> 24) & 31u;
    return s;
  }
};

}  // namespace pcv::laz
