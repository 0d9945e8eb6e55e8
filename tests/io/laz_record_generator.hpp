/// @brief Synthetic LAS point records for the LAZ round-trip tests: coherent sequences like a
/// scanner's (small coordinate steps, repeated and jumping GPS times, several scanner channels,
/// multiple returns, 8- and 16-bit colours, wave packets, extra bytes), mixed with records of
/// random bytes, since the codec must keep any bit pattern.
#pragma once

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "las/las_header.hpp"

namespace pcv::test {

struct RecordStyle {
  bool randomBytes = false;  ///< every byte random (the worst case for the predictors)
  int scannerChannels = 1;   ///< 1-4 (formats 6-10)
  bool eightBitColor = false;
};

inline void putLe(uint8_t* p, uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) p[i] = uint8_t(value >> (8 * i));
}

/// `count` records of `pointFormat` with `extraBytes` extra bytes each.
inline std::vector<uint8_t> syntheticRecords(int pointFormat, uint32_t extraBytes, uint64_t count,
                                             uint32_t seed, const RecordStyle& style = {}) {
  const uint32_t length = io::kLasFormatBytes[pointFormat] + extraBytes;
  std::vector<uint8_t> records(count * length);
  std::mt19937_64 random(seed);
  auto chance = [&](int percent) { return int(random() % 100) < percent; };
  if (style.randomBytes) {
    for (auto& b : records) b = uint8_t(random());
    return records;
  }
  const bool extended = pointFormat >= 6;
  int32_t x = int32_t(random() % 100000), y = int32_t(random() % 100000), z = 5000;
  double gps = 1.0e8 + double(random() % 1000);
  uint32_t returnNumber = 1, returns = 1, channel = 0;
  uint16_t color[4] = {1000, 2000, 3000, 4000};
  uint64_t waveOffset = 0;
  uint32_t waveSize = 256;
  std::vector<uint8_t> extra(extraBytes);
  for (uint64_t i = 0; i < count; ++i) {
    uint8_t* r = records.data() + i * length;
    // Pulses: a new one every few records, several returns each.
    if (returnNumber >= returns) {
      returns = 1 + uint32_t(random() % (extended ? 7 : 5));
      returnNumber = 1;
      gps += chance(2) ? double(random() % 100000) : 1.0e-5 * double(1 + random() % 3);
      if (extended && style.scannerChannels > 1 && chance(20)) {
        channel = uint32_t(random() % style.scannerChannels);
      }
    } else {
      ++returnNumber;
    }
    if (chance(1)) gps = double(random() % 1000000);  // another flight line
    x += int32_t(random() % 201) - 100;
    y += int32_t(random() % 21) - 10;
    z += int32_t(random() % 41) - 20;
    if (chance(1)) x += int32_t(random() % 2000000) - 1000000;
    putLe(r, uint32_t(x), 4);
    putLe(r + 4, uint32_t(y), 4);
    putLe(r + 8, uint32_t(z), 4);
    putLe(r + 12, chance(10) ? random() % 65536 : 100 + random() % 50, 2);
    const uint32_t classification = chance(80) ? 2 : uint32_t(random() % 32);
    const uint32_t flags = chance(95) ? 0 : uint32_t(random() % 16);
    const uint32_t scanDirection = uint32_t(i / 500) & 1, edge = chance(1);
    if (extended) {
      r[14] = uint8_t(returnNumber | (returns << 4));
      r[15] = uint8_t(flags | (channel << 4) | (scanDirection << 6) | (edge << 7));
      r[16] = uint8_t(classification | (chance(2) ? 0x80 : 0));
      r[17] = uint8_t(chance(90) ? 0 : random());
      putLe(r + 18, uint16_t(int16_t(int32_t(i % 3000) - 1500)), 2);
      putLe(r + 20, 7 + (i / 4000), 2);
      double time = gps;
      std::memcpy(r + 22, &time, 8);
    } else {
      r[14] = uint8_t(returnNumber | (returns << 3) | (scanDirection << 6) | (edge << 7));
      r[15] = uint8_t(classification | ((flags & 7) << 5));
      r[16] = uint8_t(int8_t(int32_t(i % 60) - 30));
      r[17] = uint8_t(chance(90) ? 0 : random());
      putLe(r + 18, 7 + (i / 4000), 2);
    }
    uint32_t at = extended ? 30 : 20;
    const bool hasGps = pointFormat == 1 || (pointFormat >= 3 && pointFormat <= 5);
    if (hasGps) {
      double time = gps;
      std::memcpy(r + at, &time, 8);
      at += 8;
    }
    const bool hasRgb = pointFormat == 2 || pointFormat == 3 || pointFormat == 5 ||
                        pointFormat == 7 || pointFormat == 8 || pointFormat == 10;
    if (hasRgb) {
      if (chance(30)) {
        for (int c = 0; c < 4; ++c) color[c] = uint16_t(color[c] + (random() % 512) - 256);
      }
      if (chance(5)) color[1] = color[2] = color[0];  // grey
      for (int c = 0; c < 3; ++c) {
        putLe(r + at + 2 * c, style.eightBitColor ? color[c] & 0xFF : color[c], 2);
      }
      at += 6;
      if (pointFormat == 8 || pointFormat == 10) {
        putLe(r + at, color[3], 2);
        at += 2;
      }
    }
    if (pointFormat == 4 || pointFormat == 5 || pointFormat == 9 || pointFormat == 10) {
      r[at] = uint8_t(chance(95) ? 1 : random() % 4);
      if (chance(90)) {
        waveOffset += waveSize;
      } else if (chance(50)) {
        waveOffset += random() % 100000;
      } else {
        waveOffset = random();
      }
      if (chance(5)) waveSize = uint32_t(random() % 1024);
      putLe(r + at + 1, waveOffset, 8);
      putLe(r + at + 9, waveSize, 4);
      float values[4] = {float(random() % 1000), 0.5f, -0.25f, float(i % 7)};
      std::memcpy(r + at + 13, values, 16);
      at += 29;
    }
    for (uint32_t b = 0; b < extraBytes; ++b) {
      if (chance(20)) extra[b] = uint8_t(extra[b] + random() % 5);
      r[at + b] = extra[b];
    }
  }
  return records;
}

}  // namespace pcv::test
