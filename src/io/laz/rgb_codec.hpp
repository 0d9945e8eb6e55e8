/// @brief RGB coding (the RGB12 item and the RGB layer of RGB14 / RGBNIR14). Low and high bytes
/// of each 16-bit channel are coded apart, since files store 8-bit colours in either: one symbol
/// says which of the six bytes changed and whether the colour is grey, then each changed byte is
/// coded against the last one, green and blue predicted from red's change.
#pragma once

#include <cstdint>

#include "arithmetic_decoder.hpp"
#include "entropy_models.hpp"
#include "integer_coder.hpp"
#include "record_bytes.hpp"

namespace pcv::laz {

struct Rgb {
  uint16_t channel[3];

  PCV_HOST_DEVICE void load(const uint8_t* item) {
    for (int c = 0; c < 3; ++c) channel[c] = loadLe<uint16_t>(item + 2 * c);
  }
  PCV_HOST_DEVICE void store(uint8_t* item) const {
    for (int c = 0; c < 3; ++c) storeLe(item + 2 * c, channel[c]);
  }
};

/// Bit 6 of the change symbol: the channels differ (not grey); bits 0-5: byte b of the colour
/// (low red, high red, low green ...) changed.
inline constexpr uint32_t kRgbNotGrey = 1u << 6;

struct RgbModels {
  SymbolModel<128> changedBytes;
  SymbolModel<256> byteDiff[6];

  PCV_HOST_DEVICE void reset(bool decoding) {
    changedBytes.reset(128, decoding);
    for (auto& model : byteDiff) model.reset(256, decoding);
  }
};

PCV_HOST_DEVICE inline uint32_t lowByte(uint32_t v) {
  return v & 0xFFu;
}
PCV_HOST_DEVICE inline uint32_t highByte(uint32_t v) {
  return v >> 8;
}

/// The next colour after `last`.
PCV_HOST_DEVICE PCV_FORCE_INLINE Rgb decodeRgb(ArithmeticDecoder& decoder, RgbModels& models,
                                     const Rgb& last) {
  Rgb out;
  const uint32_t changed = decoder.decodeSymbol(models.changedBytes);
  const uint16_t* prev = last.channel;
  uint32_t redLow = lowByte(prev[0]), redHigh = highByte(prev[0]);
  if (changed & 1) redLow = wrapByte(int32_t(decoder.decodeSymbol(models.byteDiff[0]) + redLow));
  if (changed & 2) redHigh = wrapByte(int32_t(decoder.decodeSymbol(models.byteDiff[1]) + redHigh));
  out.channel[0] = uint16_t(redLow | (redHigh << 8));
  if (!(changed & kRgbNotGrey)) {
    out.channel[1] = out.channel[2] = out.channel[0];
    return out;
  }
  // Low bytes: green predicted by red's change, blue by the mean of red's and green's.
  int32_t diff = int32_t(redLow) - int32_t(lowByte(prev[0]));
  uint32_t greenLow = lowByte(prev[1]), blueLow = lowByte(prev[2]);
  if (changed & 4) {
    greenLow = wrapByte(int32_t(decoder.decodeSymbol(models.byteDiff[2]) +
                                clampByte(diff + int32_t(lowByte(prev[1])))));
  }
  if (changed & 16) {
    diff = (diff + int32_t(greenLow) - int32_t(lowByte(prev[1]))) / 2;
    blueLow = wrapByte(int32_t(decoder.decodeSymbol(models.byteDiff[4]) +
                               clampByte(diff + int32_t(lowByte(prev[2])))));
  }
  diff = int32_t(redHigh) - int32_t(highByte(prev[0]));
  uint32_t greenHigh = highByte(prev[1]), blueHigh = highByte(prev[2]);
  if (changed & 8) {
    greenHigh = wrapByte(int32_t(decoder.decodeSymbol(models.byteDiff[3]) +
                                 clampByte(diff + int32_t(highByte(prev[1])))));
  }
  if (changed & 32) {
    diff = (diff + int32_t(greenHigh) - int32_t(highByte(prev[1]))) / 2;
    blueHigh = wrapByte(int32_t(decoder.decodeSymbol(models.byteDiff[5]) +
                                clampByte(diff + int32_t(highByte(prev[2])))));
  }
  out.channel[1] = uint16_t(greenLow | (greenHigh << 8));
  out.channel[2] = uint16_t(blueLow | (blueHigh << 8));
  return out;
}

/// Codes `colour` after `last`; returns the change symbol (0: nothing changed).
inline uint32_t encodeRgb(ArithmeticEncoder& encoder, RgbModels& models, const Rgb& last,
                          const Rgb& color) {
  const uint16_t* prev = last.channel;
  const uint16_t* cur = color.channel;
  uint32_t changed = 0;
  for (int c = 0; c < 3; ++c) {
    changed |= uint32_t(lowByte(prev[c]) != lowByte(cur[c])) << (2 * c);
    changed |= uint32_t(highByte(prev[c]) != highByte(cur[c])) << (2 * c + 1);
  }
  if (cur[0] != cur[1] || cur[0] != cur[2]) changed |= kRgbNotGrey;
  encoder.encodeSymbol(models.changedBytes, changed);
  int32_t diffLow = 0, diffHigh = 0;
  if (changed & 1) {
    diffLow = int32_t(lowByte(cur[0])) - int32_t(lowByte(prev[0]));
    encoder.encodeSymbol(models.byteDiff[0], wrapByte(diffLow));
  }
  if (changed & 2) {
    diffHigh = int32_t(highByte(cur[0])) - int32_t(highByte(prev[0]));
    encoder.encodeSymbol(models.byteDiff[1], wrapByte(diffHigh));
  }
  if (changed & kRgbNotGrey) {
    if (changed & 4) {
      const int32_t predicted = int32_t(clampByte(diffLow + int32_t(lowByte(prev[1]))));
      encoder.encodeSymbol(models.byteDiff[2], wrapByte(int32_t(lowByte(cur[1])) - predicted));
    }
    if (changed & 16) {
      diffLow = (diffLow + int32_t(lowByte(cur[1])) - int32_t(lowByte(prev[1]))) / 2;
      const int32_t predicted = int32_t(clampByte(diffLow + int32_t(lowByte(prev[2]))));
      encoder.encodeSymbol(models.byteDiff[4], wrapByte(int32_t(lowByte(cur[2])) - predicted));
    }
    if (changed & 8) {
      const int32_t predicted = int32_t(clampByte(diffHigh + int32_t(highByte(prev[1]))));
      encoder.encodeSymbol(models.byteDiff[3], wrapByte(int32_t(highByte(cur[1])) - predicted));
    }
    if (changed & 32) {
      diffHigh = (diffHigh + int32_t(highByte(cur[1])) - int32_t(highByte(prev[1]))) / 2;
      const int32_t predicted = int32_t(clampByte(diffHigh + int32_t(highByte(prev[2]))));
      encoder.encodeSymbol(models.byteDiff[5], wrapByte(int32_t(highByte(cur[2])) - predicted));
    }
  }
  return changed;
}

struct Rgb12V2Codec {
  Rgb last;
  RgbModels models;

  PCV_HOST_DEVICE void startChunk(const uint8_t* firstItem, bool decoding) {
    last.load(firstItem);
    models.reset(decoding);
  }
  PCV_HOST_DEVICE PCV_FORCE_INLINE void decode(ArithmeticDecoder& decoder, uint8_t* item) {
    last = decodeRgb(decoder, models, last);
    last.store(item);
  }
  void encode(ArithmeticEncoder& encoder, const uint8_t* item) {
    Rgb color;
    color.load(item);
    encodeRgb(encoder, models, last, color);
    last = color;
  }
};

/// Version 1 (decoding only): each changed byte through one integer coder, a context per byte.
struct Rgb12V1Codec {
  Rgb last;
  SymbolModel<64> changedBytes;
  IntegerCoder<6> byteCoder;

  PCV_HOST_DEVICE void startChunk(const uint8_t* firstItem) {
    last.load(firstItem);
    changedBytes.reset(64, true);
    byteCoder.reset(8, true);
  }
  PCV_HOST_DEVICE void decode(ArithmeticDecoder& decoder, uint8_t* item) {
    const uint32_t changed = decoder.decodeSymbol(changedBytes);
    for (uint32_t c = 0; c < 3; ++c) {
      uint32_t low = lowByte(last.channel[c]), high = highByte(last.channel[c]);
      if (changed & (1u << (2 * c))) low = uint32_t(byteCoder.decode(decoder, int32_t(low), 2 * c));
      if (changed & (2u << (2 * c))) {
        high = uint32_t(byteCoder.decode(decoder, int32_t(high), 2 * c + 1));
      }
      last.channel[c] = uint16_t((low & 0xFFu) | ((high & 0xFFu) << 8));
    }
    last.store(item);
  }
};

}  // namespace pcv::laz
