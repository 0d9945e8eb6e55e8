/// @brief The POINT14 item of layered chunks (point formats 6-10). Each point first codes, in
/// the returns/XY layer, one symbol saying whether the scanner channel, point source, GPS time,
/// scan angle, number of returns and return number changed; every other field lives in a layer of
/// its own (z, classification, flags, intensity, scan angle, user data, point source, GPS time),
/// which a reader may skip. All predictions are per scanner channel (four contexts).
///
/// Version 3 and 4 differ only in how other items learn the channel: version 3 passes it on only
/// for points that switch channel (other items fall back to channel 0 otherwise), version 4 on
/// every point. Both are reproduced exactly.
#pragma once

#include <cstdint>

#include "arithmetic_decoder.hpp"
#include "entropy_models.hpp"
#include "gps_time_codec.hpp"
#include "integer_coder.hpp"
#include "median_predictors.hpp"
#include "point10_codec.hpp"
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
    item[15] = uint8_t(classFlags | (scannerChannel << 4) | (scanDirection << 6) |
                       (edgeOfFlightLine << 7));
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
};

/// Return map for up to 15 returns, by [number of returns][return number], folded to 6 contexts.
PCV_HOST_DEVICE inline uint32_t point14ReturnMap(uint32_t n, uint32_t r) {
  constexpr uint8_t kMap[16][16] = {{0, 1, 2, 3, 4, 5, 3, 4, 4, 5, 5, 5, 5, 5, 5, 5},
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

/// Everything one scanner channel predicts from.
struct Point14Context {
  bool unused;  ///< not yet seen in this chunk
  Point14Fields last;
  // returns/XY layer
  SymbolModel<128> changes[8];  ///< by the last point's return kind and GPS change
  SymbolModel<3> channelStep;
  KeyedSymbolModels<16, 16> returnCountByLast, returnNumberByLast;
  SymbolModel<13> returnNumberStep;  ///< return number +2..+14 when the GPS time is unchanged
  IntegerCoder<2> dxCoder;
  IntegerCoder<22> dyCoder;
  MedianOfFive xDiff[12], yDiff[12];  ///< by return map and GPS change
  // other layers
  IntegerCoder<20> zCoder;
  int32_t lastZ[8];  ///< by return level
  KeyedSymbolModels<64, 256> classByLast;
  KeyedSymbolModels<64, 64> flagsByLast;
  IntegerCoder<4> intensityCoder;
  uint16_t lastIntensity[8];  ///< by return kind and GPS change
  IntegerCoder<2> scanAngleCoder;
  KeyedSymbolModels<64, 256> userDataByLast;
  IntegerCoder<1> pointSourceCoder;
  GpsTimeSequences gps;
};

/// The classification, flags, intensity and user data layers whose field holds the first
/// record's value in every one of `count` records. An encoder activates a layer only when its
/// field differs from a channel's last point, which here it never does, so the layer is left out
/// of the chunk whatever was coded into it: not coding it writes the same chunk, faster (constant
/// user data, flags and classes are common, and every point codes one symbol for each).
inline uint32_t unchangingLayersOf(const uint8_t* records, uint64_t count, uint32_t recordLength) {
  // Bytes 12-13 intensity; 15: class flags (bits 0-3), channel (4-5, not a flag), scan
  // direction and edge (6, 7); 16 classification; 17 user data.
  constexpr uint8_t kFlagBits = 0xCF;
  bool intensity = true, flags = true, classification = true, userData = true;
  for (uint64_t i = 1; i < count; ++i) {
    const uint8_t* r = records + i * recordLength;
    intensity &= r[12] == records[12] && r[13] == records[13];
    flags &= ((r[15] ^ records[15]) & kFlagBits) == 0;
    classification &= r[16] == records[16];
    userData &= r[17] == records[17];
  }
  return (uint32_t(intensity) << kIntensityLayer) | (uint32_t(flags) << kFlagsLayer) |
         (uint32_t(classification) << kClassificationLayer) |
         (uint32_t(userData) << kUserDataLayer);
}

struct Point14Codec {
  uint32_t version;  ///< 3 or 4
  bool decoding;
  /// Layers a decoder reads (bit per Point14Layer); the returns/XY layer always.
  uint32_t layersWanted;
  /// Layers with data in this chunk that are wanted (decoding) or that changed (encoding).
  uint32_t layersActive;
  uint32_t current;  ///< channel of the last point
  bool corrupt;      ///< the GPS layer switched sequences without end
  /// Encoding: layers whose field keeps the first record's value all through the chunk (see
  /// unchangingLayersOf), not coded.
  uint32_t layersUnchanging = 0;
  Point14Context contexts[4];
  ArithmeticDecoder layers[kPoint14LayerCount];

  /// Starts a chunk at its first (raw) record; a decoder then starts its layers. Returns the
  /// channel other items start from.
  PCV_HOST_DEVICE uint32_t startChunk(const uint8_t* firstItem, bool forDecoding) {
    decoding = forDecoding;
    corrupt = false;
    // An encoder always writes the returns/XY and z layers, the others once a value changes.
    layersActive = decoding ? 0u : (1u << kReturnsXYLayer) | (1u << kZLayer);
    for (auto& context : contexts) context.unused = true;
    Point14Fields first;
    first.load(firstItem);
    current = first.scannerChannel;
    startContext(current, first);
    return current;
  }

  /// Points a decoder's layer at its bytes; empty or unwanted layers stay inactive, except the
  /// returns/XY layer, which every point after the first needs (an empty one is an overrun).
  PCV_HOST_DEVICE void startLayer(uint32_t layer, const uint8_t* bytes, uint32_t size) {
    const uint32_t bit = 1u << layer;
    if (layer == kReturnsXYLayer || ((layersWanted & bit) && size > 0)) {
      layersActive |= bit;
      layers[layer].start(bytes, size);
    } else {
      layersActive &= ~bit;
    }
  }

  /// Decodes the next record; returns the channel other items use for it (see the file comment).
  PCV_HOST_DEVICE uint32_t decode(uint8_t* item) {
    ArithmeticDecoder& xy = layers[kReturnsXYLayer];
    const uint32_t lastKind = returnKindOf(contexts[current].last);
    const uint32_t changed = xy.decodeSymbol(contexts[current].changes[lastKind]);
    uint32_t channelForOthers = version >= 4 ? current : 0;
    if (changed & kChannelChanged) {
      const uint32_t channel = (current + xy.decodeSymbol(contexts[current].channelStep) + 1) & 3;
      if (contexts[channel].unused) startContext(channel, contexts[current].last);
      current = channel;
      channelForOthers = channel;
      contexts[current].last.scannerChannel = uint8_t(channel);
    }
    Point14Context& context = contexts[current];
    Point14Fields& last = context.last;
    const bool gpsChanged = (changed & kGpsTimeChanged) != 0;
    decodeReturns(xy, context, changed, gpsChanged);
    const ReturnShape shape = shapeOf(last.numberOfReturns, last.returnNumber, gpsChanged);
    decodeXY(xy, context, shape);
    decodeLayers(context, changed, shape);
    last.store(item);
    last.gpsTimeChanged = gpsChanged;
    return channelForOthers;
  }

  /// Encodes the next record into `out` (one encoder per layer); returns the channel other items
  /// use, by the same rule as decode().
  uint32_t encode(ArithmeticEncoder* out, const uint8_t* item) {
    Point14Fields point;
    point.load(item);
    const uint32_t lastKind = returnKindOf(contexts[current].last);
    const uint32_t channel = point.scannerChannel;
    // A switch compares with the channel's own last point, or starts it from the current one.
    Point14Fields* last = &contexts[current].last;
    if (channel != current && !contexts[channel].unused) last = &contexts[channel].last;
    const uint32_t changed = changesOf(point, *last, channel != current);
    ArithmeticEncoder& xy = out[kReturnsXYLayer];
    xy.encodeSymbol(contexts[current].changes[lastKind], changed);
    uint32_t channelForOthers = version >= 4 ? current : 0;
    if (changed & kChannelChanged) {
      xy.encodeSymbol(contexts[current].channelStep, ((channel - current) & 3) - 1);
      if (contexts[channel].unused) {
        startContext(channel, *last);
        last = &contexts[channel].last;
      }
      current = channel;
      channelForOthers = channel;
    }
    Point14Context& context = contexts[current];
    const bool gpsChanged = (changed & kGpsTimeChanged) != 0;
    encodeReturns(xy, context, changed, point, *last, gpsChanged);
    const ReturnShape shape = shapeOf(point.numberOfReturns, point.returnNumber, gpsChanged);
    encodeXY(xy, context, shape, point, *last);
    encodeLayers(out, context, changed, shape, point, *last);
    point.gpsTimeChanged = gpsChanged;
    point.scannerChannel = uint8_t(current);
    *last = point;
    return channelForOthers;
  }

 private:
  /// The contexts a point's returns select.
  struct ReturnShape {
    uint32_t n, r;
    uint32_t map;    ///< return map, 0-5
    uint32_t level;  ///< return level, 0-7
    uint32_t kind;   ///< single 3, first 2, last 1, intermediate 0
    bool gpsChanged;
  };

  PCV_HOST_DEVICE static ReturnShape shapeOf(uint32_t n, uint32_t r, bool gpsChanged) {
    return {n,
            r,
            point14ReturnMap(n, r),
            point14ReturnLevel(n, r),
            (r == 1 ? 2u : 0u) + (r >= n ? 1u : 0u),
            gpsChanged};
  }

  /// The last point's return kind and GPS change: the context of the change symbol.
  PCV_HOST_DEVICE static uint32_t returnKindOf(const Point14Fields& last) {
    return (last.returnNumber == 1 ? 1u : 0u) +
           (last.returnNumber >= last.numberOfReturns ? 2u : 0u) + (last.gpsTimeChanged ? 4u : 0u);
  }

  static uint32_t changesOf(const Point14Fields& point, const Point14Fields& last,
                            bool channelChanged) {
    // GPS times are compared as bits, not as doubles, so that -0.0 and NaN payloads survive.
    uint32_t changed = (uint32_t(channelChanged) << 6) |
                       (uint32_t(point.pointSourceId != last.pointSourceId) << 5) |
                       (uint32_t(point.gpsTime != last.gpsTime) << 4) |
                       (uint32_t(point.scanAngle != last.scanAngle) << 3) |
                       (uint32_t(point.numberOfReturns != last.numberOfReturns) << 2);
    const uint32_t r = point.returnNumber, lastR = last.returnNumber;
    if (r != lastR) changed |= r == ((lastR + 1) & 15) ? 1u : (r == ((lastR + 15) & 15) ? 2u : 3u);
    return changed;
  }

  /// Number of returns when it changed; the return number as +1, -1 or coded.
  PCV_HOST_DEVICE void decodeReturns(ArithmeticDecoder& xy, Point14Context& context,
                                     uint32_t changed, bool gpsChanged) {
    Point14Fields& last = context.last;
    if (changed & kReturnCountChanged) {
      last.numberOfReturns =
          uint8_t(xy.decodeSymbol(context.returnCountByLast.at(last.numberOfReturns, true)));
    }
    const uint32_t lastR = last.returnNumber;
    switch (changed & 3) {
      case 1:
        last.returnNumber = uint8_t((lastR + 1) & 15);
        break;
      case 2:
        last.returnNumber = uint8_t((lastR + 15) & 15);
        break;
      case 3:
        last.returnNumber =
            uint8_t(gpsChanged ? xy.decodeSymbol(context.returnNumberByLast.at(lastR, true))
                               : (lastR + xy.decodeSymbol(context.returnNumberStep) + 2) & 15);
        break;
      default:
        break;
    }
  }

  void encodeReturns(ArithmeticEncoder& xy, Point14Context& context, uint32_t changed,
                     const Point14Fields& point, const Point14Fields& last, bool gpsChanged) {
    if (changed & kReturnCountChanged) {
      xy.encodeSymbol(context.returnCountByLast.at(last.numberOfReturns, false),
                      point.numberOfReturns);
    }
    if ((changed & 3) == 3) {
      const uint32_t r = point.returnNumber, lastR = last.returnNumber;
      if (gpsChanged) {
        xy.encodeSymbol(context.returnNumberByLast.at(lastR, false), r);
      } else {
        xy.encodeSymbol(context.returnNumberStep, ((r - lastR) & 15) - 2);
      }
    }
  }

  /// x and y as differences predicted by the medians of the same return map's.
  PCV_HOST_DEVICE void decodeXY(ArithmeticDecoder& xy, Point14Context& context,
                                const ReturnShape& s) {
    Point14Fields& last = context.last;
    const uint32_t slot = (s.map << 1) | uint32_t(s.gpsChanged);
    const int32_t dx = context.dxCoder.decode(xy, context.xDiff[slot].median(), s.n == 1);
    last.x = int32_t(uint32_t(last.x) + uint32_t(dx));
    context.xDiff[slot].add(dx);
    const int32_t dy =
        context.dyCoder.decode(xy, context.yDiff[slot].median(),
                               (s.n == 1) + evenBitsContext(context.dxCoder.lastK(), 20));
    last.y = int32_t(uint32_t(last.y) + uint32_t(dy));
    context.yDiff[slot].add(dy);
  }

  void encodeXY(ArithmeticEncoder& xy, Point14Context& context, const ReturnShape& s,
                const Point14Fields& point, const Point14Fields& last) {
    const uint32_t slot = (s.map << 1) | uint32_t(s.gpsChanged);
    const int32_t dx = int32_t(uint32_t(point.x) - uint32_t(last.x));
    context.dxCoder.encode(xy, context.xDiff[slot].median(), dx, s.n == 1);
    context.xDiff[slot].add(dx);
    const int32_t dy = int32_t(uint32_t(point.y) - uint32_t(last.y));
    context.dyCoder.encode(xy, context.yDiff[slot].median(), dy,
                           (s.n == 1) + evenBitsContext(context.dxCoder.lastK(), 20));
    context.yDiff[slot].add(dy);
  }

  /// The layers after returns/XY, each only when active (wanted and present in the chunk).
  PCV_HOST_DEVICE void decodeLayers(Point14Context& context, uint32_t changed,
                                    const ReturnShape& s) {
    Point14Fields& last = context.last;
    if (layersActive & (1u << kZLayer)) {
      const uint32_t k = (context.dxCoder.lastK() + context.dyCoder.lastK()) / 2;
      last.z = context.zCoder.decode(layers[kZLayer], context.lastZ[s.level],
                                     (s.n == 1) + evenBitsContext(k, 18));
      context.lastZ[s.level] = last.z;
    }
    if (layersActive & (1u << kClassificationLayer)) {
      const uint32_t key = ((last.classification & 0x1Fu) << 1) + (s.kind == 3 ? 1u : 0u);
      last.classification =
          uint8_t(layers[kClassificationLayer].decodeSymbol(context.classByLast.at(key, true)));
    }
    if (layersActive & (1u << kFlagsLayer)) {
      const uint32_t flags =
          layers[kFlagsLayer].decodeSymbol(context.flagsByLast.at(last.flags(), true));
      last.edgeOfFlightLine = uint8_t((flags >> 5) & 1);
      last.scanDirection = uint8_t((flags >> 4) & 1);
      last.classFlags = uint8_t(flags & 0x0F);
    }
    if (layersActive & (1u << kIntensityLayer)) {
      const uint32_t slot = (s.kind << 1) | uint32_t(s.gpsChanged);
      last.intensity = uint16_t(context.intensityCoder.decode(layers[kIntensityLayer],
                                                              context.lastIntensity[slot], s.kind));
      context.lastIntensity[slot] = last.intensity;
    }
    if ((layersActive & (1u << kScanAngleLayer)) && (changed & kScanAngleChanged)) {
      last.scanAngle = int16_t(
          context.scanAngleCoder.decode(layers[kScanAngleLayer], last.scanAngle, s.gpsChanged));
    }
    if (layersActive & (1u << kUserDataLayer)) {
      last.userData = uint8_t(
          layers[kUserDataLayer].decodeSymbol(context.userDataByLast.at(last.userData / 4u, true)));
    }
    if ((layersActive & (1u << kPointSourceLayer)) && (changed & kPointSourceChanged)) {
      last.pointSourceId =
          uint16_t(context.pointSourceCoder.decode(layers[kPointSourceLayer], last.pointSourceId));
    }
    if ((layersActive & (1u << kGpsTimeLayer)) && s.gpsChanged) {
      last.gpsTime = context.gps.decode(layers[kGpsTimeLayer], corrupt);
    }
  }

  /// Every layer is coded but the unchanging ones; a layer whose values never changed in the
  /// chunk is left out of it.
  void encodeLayers(ArithmeticEncoder* out, Point14Context& context, uint32_t changed,
                    const ReturnShape& s, const Point14Fields& point, const Point14Fields& last) {
    const uint32_t k = (context.dxCoder.lastK() + context.dyCoder.lastK()) / 2;
    context.zCoder.encode(out[kZLayer], context.lastZ[s.level], point.z,
                          (s.n == 1) + evenBitsContext(k, 18));
    context.lastZ[s.level] = point.z;
    const auto coded = [&](Point14Layer layer) { return !(layersUnchanging & (1u << layer)); };
    if (coded(kClassificationLayer)) {
      if (point.classification != last.classification) layersActive |= 1u << kClassificationLayer;
      const uint32_t classKey = ((last.classification & 0x1Fu) << 1) + (s.kind == 3 ? 1u : 0u);
      out[kClassificationLayer].encodeSymbol(context.classByLast.at(classKey, false),
                                             point.classification);
    }
    if (coded(kFlagsLayer)) {
      if (point.flags() != last.flags()) layersActive |= 1u << kFlagsLayer;
      out[kFlagsLayer].encodeSymbol(context.flagsByLast.at(last.flags(), false), point.flags());
    }
    if (coded(kIntensityLayer)) {
      if (point.intensity != last.intensity) layersActive |= 1u << kIntensityLayer;
      const uint32_t slot = (s.kind << 1) | uint32_t(s.gpsChanged);
      context.intensityCoder.encode(out[kIntensityLayer], context.lastIntensity[slot],
                                    point.intensity, s.kind);
      context.lastIntensity[slot] = point.intensity;
    }
    if (changed & kScanAngleChanged) {
      layersActive |= 1u << kScanAngleLayer;
      context.scanAngleCoder.encode(out[kScanAngleLayer], last.scanAngle, point.scanAngle,
                                    s.gpsChanged);
    }
    if (coded(kUserDataLayer)) {
      if (point.userData != last.userData) layersActive |= 1u << kUserDataLayer;
      out[kUserDataLayer].encodeSymbol(context.userDataByLast.at(last.userData / 4u, false),
                                       point.userData);
    }
    if (changed & kPointSourceChanged) {
      layersActive |= 1u << kPointSourceLayer;
      context.pointSourceCoder.encode(out[kPointSourceLayer], last.pointSourceId,
                                      point.pointSourceId);
    }
    if (s.gpsChanged) {
      layersActive |= 1u << kGpsTimeLayer;
      context.gps.encode(out[kGpsTimeLayer], point.gpsTime);
    }
  }

  /// A channel's first point in the chunk starts from `from` (the first record, or the last
  /// point of the channel it switched from).
  PCV_HOST_DEVICE void startContext(uint32_t channel, const Point14Fields& from) {
    Point14Context& context = contexts[channel];
    context.unused = false;
    context.last = from;
    context.last.gpsTimeChanged = false;
    const bool all = !decoding;
    for (auto& model : context.changes) model.reset(128, decoding);
    context.channelStep.reset(3, decoding);
    context.returnCountByLast.startChunk();
    context.returnNumberByLast.startChunk();
    context.returnNumberStep.reset(13, decoding);
    context.dxCoder.reset(32, decoding);
    context.dyCoder.reset(32, decoding);
    for (int i = 0; i < 12; ++i) {
      context.xDiff[i].reset();
      context.yDiff[i].reset();
    }
    for (auto& z : context.lastZ) z = from.z;
    for (auto& intensity : context.lastIntensity) intensity = from.intensity;
    if (all || (layersWanted & (1u << kZLayer))) context.zCoder.reset(32, decoding);
    if (all || (layersWanted & (1u << kClassificationLayer))) context.classByLast.startChunk();
    if (all || (layersWanted & (1u << kFlagsLayer))) context.flagsByLast.startChunk();
    if (all || (layersWanted & (1u << kIntensityLayer))) context.intensityCoder.reset(16, decoding);
    if (all || (layersWanted & (1u << kScanAngleLayer))) context.scanAngleCoder.reset(16, decoding);
    if (all || (layersWanted & (1u << kUserDataLayer))) context.userDataByLast.startChunk();
    if (all || (layersWanted & (1u << kPointSourceLayer))) {
      context.pointSourceCoder.reset(16, decoding);
    }
    if (all || (layersWanted & (1u << kGpsTimeLayer))) {
      context.gps.startChunk(from.gpsTime, false, decoding);
    }
  }
};

}  // namespace pcv::laz
