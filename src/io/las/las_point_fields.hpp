/// @brief Every field of a LAS point record of any format (0-10) in one struct, to move points
/// between formats: legacy (0-5) and extended (6-10) return numbers, classes and scan angles map
/// as LAS 1.4 describes.
#pragma once

#include <cstdint>

#include "common/byte_order.hpp"
#include "common/scalar_types.hpp"

namespace pcv::io {

struct LasPointFields {
  int32_t xyz[3] = {0, 0, 0};  ///< on the record's grid
  uint16_t intensity = 0;
  uint8_t returnNumber = 0, numberOfReturns = 0;  ///< 0-15 (legacy formats: 0-7)
  uint8_t classification = 0;                     ///< 0-255 (legacy formats: 0-31)
  uint8_t classFlags = 0;  ///< synthetic, key-point, withheld, overlap (bits 0-3)
  uint8_t scannerChannel = 0;
  bool scanDirection = false, edgeOfFlightLine = false;
  int16_t scanAngle = 0;     ///< extended formats: 0.006 degree steps
  int8_t scanAngleRank = 0;  ///< legacy formats: whole degrees; each derived from the other
  uint8_t userData = 0;
  uint16_t pointSourceId = 0;
  double gpsTime = 0.0;
  uint16_t rgb[3] = {0, 0, 0};
  uint16_t nir = 0;
  uint8_t wavePacket[29] = {};
};

/// A field of the wave packet descriptor (formats 4, 5, 9, 10): where the point's waveform lies
/// and how the return sits on it. `offset`: bytes into the descriptor's 29.
struct LasWavePacketField {
  const char* name;  ///< the attribute's name
  ScalarType type;
  uint32_t offset;
};
inline constexpr LasWavePacketField kLasWavePacketFields[] = {
    {"wave_packet_index", ScalarType::UInt8, 0},
    {"wave_packet_offset", ScalarType::UInt64, 1},
    {"wave_packet_size", ScalarType::UInt32, 9},
    {"return_point_location", ScalarType::Float32, 13},
    {"x_t", ScalarType::Float32, 17},
    {"y_t", ScalarType::Float32, 21},
    {"z_t", ScalarType::Float32, 25}};

/// The 16-bit colour channels as attributes, for those who read every field (pcv.read): the
/// points' colours are 8-bit, and these give a write the file's own 16 bits back.
inline constexpr const char* kLasColorChannelNames[3] = {"red", "green", "blue"};

/// Where the optional fields of a format lie (0: absent).
struct LasFormatFields {
  uint32_t gps, rgb, nir, wave;
  bool extended;
};

inline LasFormatFields lasFormatFields(int format) {
  switch (format) {
    case 1:
      return {20, 0, 0, 0, false};
    case 2:
      return {0, 20, 0, 0, false};
    case 3:
      return {20, 28, 0, 0, false};
    case 4:
      return {20, 0, 0, 28, false};
    case 5:
      return {20, 28, 0, 34, false};
    case 6:
      return {22, 0, 0, 0, true};
    case 7:
      return {22, 30, 0, 0, true};
    case 8:
      return {22, 30, 36, 0, true};
    case 9:
      return {22, 0, 0, 30, true};
    case 10:
      return {22, 30, 36, 38, true};
    default:
      return {0, 0, 0, 0, false};
  }
}

inline LasPointFields unpackLasPoint(const uint8_t* r, int format) {
  const LasFormatFields f = lasFormatFields(format);
  LasPointFields p;
  for (int a = 0; a < 3; ++a) p.xyz[a] = loadLe<int32_t>(r + 4 * a);
  p.intensity = loadLe<uint16_t>(r + 12);
  if (f.extended) {
    p.returnNumber = r[14] & 0x0F;
    p.numberOfReturns = r[14] >> 4;
    p.classFlags = r[15] & 0x0F;
    p.scannerChannel = (r[15] >> 4) & 3;
    p.scanDirection = (r[15] >> 6) & 1;
    p.edgeOfFlightLine = r[15] >> 7;
    p.classification = r[16];
    p.userData = r[17];
    p.scanAngle = loadLe<int16_t>(r + 18);
    const int32_t degrees = (int32_t(p.scanAngle) * 6 + (p.scanAngle >= 0 ? 500 : -500)) / 1000;
    p.scanAngleRank = int8_t(degrees < -90 ? -90 : (degrees > 90 ? 90 : degrees));
    p.pointSourceId = loadLe<uint16_t>(r + 20);
  } else {
    p.returnNumber = r[14] & 7;
    p.numberOfReturns = (r[14] >> 3) & 7;
    p.scanDirection = (r[14] >> 6) & 1;
    p.edgeOfFlightLine = r[14] >> 7;
    p.classification = r[15] & 0x1F;
    p.classFlags = r[15] >> 5;
    p.scanAngleRank = int8_t(r[16]);
    p.scanAngle = int16_t(int32_t(p.scanAngleRank) * 1000 / 6);
    p.userData = r[17];
    p.pointSourceId = loadLe<uint16_t>(r + 18);
  }
  if (f.gps) p.gpsTime = loadLe<double>(r + f.gps);
  if (f.rgb) {
    for (int c = 0; c < 3; ++c) p.rgb[c] = loadLe<uint16_t>(r + f.rgb + 2 * c);
  }
  if (f.nir) p.nir = loadLe<uint16_t>(r + f.nir);
  if (f.wave) std::memcpy(p.wavePacket, r + f.wave, 29);
  return p;
}

inline void packLasPoint(const LasPointFields& p, int format, uint8_t* r) {
  const LasFormatFields f = lasFormatFields(format);
  for (int a = 0; a < 3; ++a) storeLe(r + 4 * a, p.xyz[a]);
  storeLe(r + 12, p.intensity);
  if (f.extended) {
    r[14] = uint8_t((p.returnNumber & 0x0F) | (p.numberOfReturns << 4));
    r[15] = uint8_t((p.classFlags & 0x0F) | ((p.scannerChannel & 3) << 4) |
                    (uint32_t(p.scanDirection) << 6) | (uint32_t(p.edgeOfFlightLine) << 7));
    r[16] = p.classification;
    r[17] = p.userData;
    storeLe(r + 18, p.scanAngle);
    storeLe(r + 20, p.pointSourceId);
  } else {
    const uint32_t returnNumber = p.returnNumber > 7 ? 7 : p.returnNumber;
    const uint32_t returns = p.numberOfReturns > 7 ? 7 : p.numberOfReturns;
    r[14] = uint8_t(returnNumber | (returns << 3) | (uint32_t(p.scanDirection) << 6) |
                    (uint32_t(p.edgeOfFlightLine) << 7));
    // Classes above 31 have no legacy code.
    r[15] = uint8_t((p.classification < 32 ? p.classification : 0) | ((p.classFlags & 7) << 5));
    r[16] = uint8_t(p.scanAngleRank);
    r[17] = p.userData;
    storeLe(r + 18, p.pointSourceId);
  }
  if (f.gps) storeLe(r + f.gps, p.gpsTime);
  if (f.rgb) {
    for (int c = 0; c < 3; ++c) storeLe(r + f.rgb + 2 * c, p.rgb[c]);
  }
  if (f.nir) storeLe(r + f.nir, p.nir);
  if (f.wave) std::memcpy(r + f.wave, p.wavePacket, 29);
}

}  // namespace pcv::io
