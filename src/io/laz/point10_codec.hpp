/// @brief The POINT10 item (the 20 bytes every point format 0-5 record starts with) in its two
/// versions. Version 2 predicts x and y from the median of the last five differences of points
/// with the same return map, z from the last z of the same return level, and codes which of the
/// other fields changed in one symbol; version 1 (the first LASzip release) predicts from the
/// median of three and codes the changes after the coordinates.
#pragma once

#include <cstdint>

#include "arithmetic_decoder.hpp"
#include "entropy_models.hpp"
#include "integer_coder.hpp"
#include "median_predictors.hpp"
#include "record_bytes.hpp"

namespace pcv::laz {

/// The fields of a POINT10 item as the codec sees them (record byte offsets in comments).
struct Point10Fields {
  int32_t x, y, z;     ///< 0, 4, 8
  uint16_t intensity;  ///< 12
  uint8_t returns;     ///< 14: return number (3 bits), number of returns (3), scan direction, edge
  uint8_t classification;  ///< 15: class and its three flags
  uint8_t scanAngleRank;   ///< 16 (signed in LAS; coded as its byte)
  uint8_t userData;        ///< 17
  uint16_t pointSourceId;  ///< 18

  PCV_HOST_DEVICE void load(const uint8_t* item) {
    x = loadLe<int32_t>(item);
    y = loadLe<int32_t>(item + 4);
    z = loadLe<int32_t>(item + 8);
    intensity = loadLe<uint16_t>(item + 12);
    returns = item[14];
    classification = item[15];
    scanAngleRank = item[16];
    userData = item[17];
    pointSourceId = loadLe<uint16_t>(item + 18);
  }
  PCV_HOST_DEVICE void store(uint8_t* item) const {
    storeLe(item, x);
    storeLe(item + 4, y);
    storeLe(item + 8, z);
    storeLe(item + 12, intensity);
    item[14] = returns;
    item[15] = classification;
    item[16] = scanAngleRank;
    item[17] = userData;
    storeLe(item + 18, pointSourceId);
  }
  PCV_HOST_DEVICE uint32_t returnNumber() const { return returns & 7u; }
  PCV_HOST_DEVICE uint32_t numberOfReturns() const { return (returns >> 3) & 7u; }
  PCV_HOST_DEVICE uint32_t scanDirection() const { return (returns >> 6) & 1u; }
};

/// Return map by [number of returns][return number]: the valid pairs numbered 0-14 (single,
/// first of two, second of two, first of three ...); the invalid ones (numbering from 0, a return
/// number above the count) spread over the other contexts.
PCV_HOST_DEVICE inline uint32_t point10ReturnMap(uint32_t n, uint32_t r) {
  static constexpr uint8_t kMap[8][8] = {{15, 14, 13, 12, 11, 10, 9, 8},  {14, 0, 1, 3, 6, 10, 10, 9},
                                  {13, 1, 2, 4, 7, 11, 11, 10},    {12, 3, 4, 5, 8, 12, 12, 11},
                                  {11, 6, 7, 8, 9, 13, 13, 12},    {10, 10, 11, 12, 13, 14, 14, 13},
                                  {9, 10, 11, 12, 13, 14, 15, 14}, {8, 9, 10, 11, 12, 13, 14, 15}};
  return kMap[n][r];
}

/// Return level: how far the return number is from the number of returns.
PCV_HOST_DEVICE inline uint32_t point10ReturnLevel(uint32_t n, uint32_t r) {
  return n > r ? n - r : r - n;
}

/// Contexts from a corrector's bit count: even counts up to a cap (k & ~1).
PCV_HOST_DEVICE inline uint32_t evenBitsContext(uint32_t k, uint32_t cap) {
  return k < cap ? (k & ~1u) : cap;
}

struct Point10V2Codec {
  Point10Fields last;
  uint16_t lastIntensity[16];         ///< by return map
  int32_t lastZ[8];                   ///< by return level
  MedianOfFive xDiff[16], yDiff[16];  ///< by return map
  bool decoding;
  SymbolModel<64> changedFields;
  SymbolModel<256> scanAngleDiff[2];  ///< by scan direction
  KeyedSymbolModels<256, 256> returnsByLast, classByLast, userDataByLast;
  IntegerCoder<4> intensityCoder;
  IntegerCoder<1> pointSourceCoder;
  IntegerCoder<2> dxCoder;
  IntegerCoder<22> dyCoder;
  IntegerCoder<20> zCoder;

  PCV_HOST_DEVICE void startChunk(const uint8_t* firstItem, bool forDecoding) {
    decoding = forDecoding;
    for (int i = 0; i < 16; ++i) {
      xDiff[i].reset();
      yDiff[i].reset();
      lastIntensity[i] = 0;
    }
    for (auto& z : lastZ) z = 0;
    changedFields.reset(64, decoding);
    scanAngleDiff[0].reset(256, decoding);
    scanAngleDiff[1].reset(256, decoding);
    returnsByLast.startChunk();
    classByLast.startChunk();
    userDataByLast.startChunk();
    intensityCoder.reset(16, decoding);
    pointSourceCoder.reset(16, decoding);
    dxCoder.reset(32, decoding);
    dyCoder.reset(32, decoding);
    zCoder.reset(32, decoding);
    last.load(firstItem);
    // The first point's intensity is not a prediction: intensities start from 0.
    last.intensity = 0;
  }

  PCV_HOST_DEVICE PCV_FORCE_INLINE void decode(ArithmeticDecoder& decoder, uint8_t* item) {
    const uint32_t changed = decoder.decodeSymbol(changedFields);
    uint32_t r, n, m, l;
    if (changed != 0) {
      if (changed & 32) {
        last.returns = uint8_t(decoder.decodeSymbol(returnsByLast.at(last.returns, true)));
      }
      r = last.returnNumber();
      n = last.numberOfReturns();
      m = point10ReturnMap(n, r);
      l = point10ReturnLevel(n, r);
      if (changed & 16) {
        last.intensity = uint16_t(intensityCoder.decode(decoder, lastIntensity[m], m < 3 ? m : 3));
        lastIntensity[m] = last.intensity;
      } else {
        last.intensity = lastIntensity[m];
      }
      if (changed & 8) {
        last.classification =
            uint8_t(decoder.decodeSymbol(classByLast.at(last.classification, true)));
      }
      if (changed & 4) {
        const uint32_t diff = decoder.decodeSymbol(scanAngleDiff[last.scanDirection()]);
        last.scanAngleRank = wrapByte(int32_t(diff + last.scanAngleRank));
      }
      if (changed & 2) {
        last.userData = uint8_t(decoder.decodeSymbol(userDataByLast.at(last.userData, true)));
      }
      if (changed & 1) {
        last.pointSourceId = uint16_t(pointSourceCoder.decode(decoder, last.pointSourceId));
      }
    } else {
      r = last.returnNumber();
      n = last.numberOfReturns();
      m = point10ReturnMap(n, r);
      l = point10ReturnLevel(n, r);
    }
    const int32_t dx = dxCoder.decode(decoder, xDiff[m].median(), n == 1);
    last.x = int32_t(uint32_t(last.x) + uint32_t(dx));
    xDiff[m].add(dx);
    const int32_t dy =
        dyCoder.decode(decoder, yDiff[m].median(), (n == 1) + evenBitsContext(dxCoder.lastK(), 20));
    last.y = int32_t(uint32_t(last.y) + uint32_t(dy));
    yDiff[m].add(dy);
    const uint32_t k = (dxCoder.lastK() + dyCoder.lastK()) / 2;
    last.z = zCoder.decode(decoder, lastZ[l], (n == 1) + evenBitsContext(k, 18));
    lastZ[l] = last.z;
    last.store(item);
  }

  void encode(ArithmeticEncoder& encoder, const uint8_t* item) {
    Point10Fields point;
    point.load(item);
    const uint32_t r = point.returnNumber(), n = point.numberOfReturns();
    const uint32_t m = point10ReturnMap(n, r), l = point10ReturnLevel(n, r);
    const uint32_t changed = (uint32_t(last.returns != point.returns) << 5) |
                             (uint32_t(lastIntensity[m] != point.intensity) << 4) |
                             (uint32_t(last.classification != point.classification) << 3) |
                             (uint32_t(last.scanAngleRank != point.scanAngleRank) << 2) |
                             (uint32_t(last.userData != point.userData) << 1) |
                             uint32_t(last.pointSourceId != point.pointSourceId);
    encoder.encodeSymbol(changedFields, changed);
    if (changed & 32) encoder.encodeSymbol(returnsByLast.at(last.returns, false), point.returns);
    if (changed & 16) {
      intensityCoder.encode(encoder, lastIntensity[m], point.intensity, m < 3 ? m : 3);
      lastIntensity[m] = point.intensity;
    }
    if (changed & 8) {
      encoder.encodeSymbol(classByLast.at(last.classification, false), point.classification);
    }
    if (changed & 4) {
      encoder.encodeSymbol(scanAngleDiff[point.scanDirection()],
                           wrapByte(int32_t(point.scanAngleRank) - int32_t(last.scanAngleRank)));
    }
    if (changed & 2) encoder.encodeSymbol(userDataByLast.at(last.userData, false), point.userData);
    if (changed & 1) pointSourceCoder.encode(encoder, last.pointSourceId, point.pointSourceId);
    const int32_t dx = int32_t(uint32_t(point.x) - uint32_t(last.x));
    dxCoder.encode(encoder, xDiff[m].median(), dx, n == 1);
    xDiff[m].add(dx);
    const int32_t dy = int32_t(uint32_t(point.y) - uint32_t(last.y));
    dyCoder.encode(encoder, yDiff[m].median(), dy, (n == 1) + evenBitsContext(dxCoder.lastK(), 20));
    yDiff[m].add(dy);
    const uint32_t k = (dxCoder.lastK() + dyCoder.lastK()) / 2;
    zCoder.encode(encoder, lastZ[l], point.z, (n == 1) + evenBitsContext(k, 18));
    lastZ[l] = point.z;
    last = point;
  }
};

/// Version 1: decoding only (LAZ writers have used version 2 since 2011).
struct Point10V1Codec {
  Point10Fields last;
  int32_t lastXDiff[3], lastYDiff[3];
  uint32_t nextDiff;  ///< slot of lastXDiff / lastYDiff to overwrite
  SymbolModel<64> changedFields;
  KeyedSymbolModels<256, 256> returnsByLast, classByLast, userDataByLast;
  IntegerCoder<1> dxCoder;
  IntegerCoder<20> dyCoder, zCoder;
  IntegerCoder<1> intensityCoder;
  IntegerCoder<2> scanAngleCoder;
  IntegerCoder<1> pointSourceCoder;

  PCV_HOST_DEVICE void startChunk(const uint8_t* firstItem) {
    for (int i = 0; i < 3; ++i) lastXDiff[i] = lastYDiff[i] = 0;
    nextDiff = 0;
    changedFields.reset(64, true);
    returnsByLast.startChunk();
    classByLast.startChunk();
    userDataByLast.startChunk();
    dxCoder.reset(32, true);
    dyCoder.reset(32, true);
    zCoder.reset(32, true);
    intensityCoder.reset(16, true);
    scanAngleCoder.reset(8, true);
    pointSourceCoder.reset(16, true);
    last.load(firstItem);
  }

  PCV_HOST_DEVICE void decode(ArithmeticDecoder& decoder, uint8_t* item) {
    const int32_t dx = dxCoder.decode(decoder, medianOfThree(lastXDiff));
    last.x = int32_t(uint32_t(last.x) + uint32_t(dx));
    uint32_t k = dxCoder.lastK();
    const int32_t dy = dyCoder.decode(decoder, medianOfThree(lastYDiff), k < 19 ? k : 19);
    last.y = int32_t(uint32_t(last.y) + uint32_t(dy));
    k = (k + dyCoder.lastK()) / 2;
    last.z = zCoder.decode(decoder, last.z, k < 19 ? k : 19);
    const uint32_t changed = decoder.decodeSymbol(changedFields);
    if (changed != 0) {
      if (changed & 32) last.intensity = uint16_t(intensityCoder.decode(decoder, last.intensity));
      if (changed & 16) {
        last.returns = uint8_t(decoder.decodeSymbol(returnsByLast.at(last.returns, true)));
      }
      if (changed & 8) {
        last.classification =
            uint8_t(decoder.decodeSymbol(classByLast.at(last.classification, true)));
      }
      if (changed & 4) {
        last.scanAngleRank = uint8_t(scanAngleCoder.decode(decoder, last.scanAngleRank, k < 3));
      }
      if (changed & 2) {
        last.userData = uint8_t(decoder.decodeSymbol(userDataByLast.at(last.userData, true)));
      }
      if (changed & 1) {
        last.pointSourceId = uint16_t(pointSourceCoder.decode(decoder, last.pointSourceId));
      }
    }
    lastXDiff[nextDiff] = dx;
    lastYDiff[nextDiff] = dy;
    nextDiff = nextDiff == 2 ? 0 : nextDiff + 1;
    last.store(item);
  }
};

}  // namespace pcv::laz
