/// @brief GPS time coding. The double is coded through its 64 bits as an integer: a difference
/// that fits 32 bits is predicted as a multiple of the last difference (the multiple is the
/// symbol), a larger jump sends the high 32 bits against the last time and the low 32 raw. Four
/// time sequences are kept so that interleaved flight lines each keep their own prediction.
/// GpsTimeSequences serves the GPSTIME11 item version 2 and the POINT14 GPS time layer, which
/// differ only in that version 2 can also say "unchanged" (POINT14 says so in its own layer).
#pragma once

#include <cstdint>

#include "arithmetic_decoder.hpp"
#include "entropy_models.hpp"
#include "integer_coder.hpp"
#include "record_bytes.hpp"

namespace pcv::laz {

/// Multiples of the last difference coded directly: 1..499 up, -1..-9 down, beyond as extremes.
inline constexpr int32_t kGpsMultiMax = 500;
inline constexpr int32_t kGpsMultiMin = -10;
/// A coder gives up on sequences that switch without coding anything after this many switches
/// in one point (encoders switch at most once), so corrupt data cannot recurse forever.
inline constexpr int kMaxGpsSequenceSwitches = 4;

/// The multiple LAZ predicts with: the ratio rounded half away from zero in single precision.
inline int32_t gpsMultiple(int32_t diff, int32_t lastDiff) {
  const float ratio = float(diff) / float(lastDiff);
  // Clamped first: the symbols stop at +-kGpsMultiMax, and the conversion must stay defined.
  if (ratio >= float(kGpsMultiMax)) return kGpsMultiMax;
  if (ratio <= float(kGpsMultiMin)) return kGpsMultiMin;
  return ratio >= 0.0f ? int32_t(ratio + 0.5f) : int32_t(ratio - 0.5f);
}

/// Wrapping 32-bit product, as the predictions are computed.
PCV_HOST_DEVICE inline int32_t wrappingProduct(int32_t a, int32_t b) {
  return int32_t(uint32_t(a) * uint32_t(b));
}

struct GpsTimeSequences {
  uint64_t lastTime[4];       ///< bits of the last time of each sequence
  int32_t lastDiff[4];        ///< its last 32-bit difference (0: none yet)
  int32_t extremeCount[4];    ///< consecutive differences outside the multiple range
  uint32_t current;           ///< sequence of the last point
  uint32_t newest;            ///< sequence a new jump starts next
  bool hasUnchangedSymbol;    ///< GPSTIME11 version 2
  SymbolModel<516> multiple;  ///< after a non-zero difference
  SymbolModel<6> afterZero;   ///< after a zero difference
  IntegerCoder<9> diffCoder;

  /// Symbol numbers; `unchangedSymbols` shifts the codes above "unchanged" by one.
  PCV_HOST_DEVICE uint32_t fullJumpMultiple() const {
    return uint32_t(kGpsMultiMax - kGpsMultiMin + 1) + hasUnchangedSymbol;
  }

  PCV_HOST_DEVICE void startChunk(uint64_t firstTime, bool withUnchangedSymbol, bool decoding) {
    hasUnchangedSymbol = withUnchangedSymbol;
    for (int i = 0; i < 4; ++i) {
      lastTime[i] = 0;
      lastDiff[i] = 0;
      extremeCount[i] = 0;
    }
    lastTime[0] = firstTime;
    current = newest = 0;
    multiple.reset(fullJumpMultiple() + 4, decoding);
    afterZero.reset(5 + hasUnchangedSymbol, decoding);
    diffCoder.reset(32, decoding);
  }

  /// Decodes the next time; `corrupt` is set when the sequence switches do not end.
  PCV_HOST_DEVICE PCV_FORCE_INLINE uint64_t decode(ArithmeticDecoder& decoder, bool& corrupt) {
    for (int switches = 0; switches <= kMaxGpsSequenceSwitches; ++switches) {
      if (lastDiff[current] == 0) {
        uint32_t symbol = decoder.decodeSymbol(afterZero);
        if (hasUnchangedSymbol) {
          if (symbol == 0) return lastTime[current];
          --symbol;
        }
        if (symbol == 0) {
          lastDiff[current] = diffCoder.decode(decoder, 0, 0);
          lastTime[current] += uint64_t(int64_t(lastDiff[current]));
          extremeCount[current] = 0;
          return lastTime[current];
        }
        if (symbol == 1) return decodeJump(decoder);
        current = (current + symbol - 1) & 3;
        continue;
      }
      uint32_t symbol = decoder.decodeSymbol(multiple);
      const uint32_t full = fullJumpMultiple();
      if (symbol == 1) {
        lastTime[current] += uint64_t(int64_t(diffCoder.decode(decoder, lastDiff[current], 1)));
        extremeCount[current] = 0;
        return lastTime[current];
      }
      if (symbol < uint32_t(kGpsMultiMax - kGpsMultiMin + 1)) {
        lastTime[current] += uint64_t(int64_t(decodeMultiple(decoder, int32_t(symbol))));
        return lastTime[current];
      }
      if (hasUnchangedSymbol && symbol == full - 1) return lastTime[current];
      if (symbol == full) return decodeJump(decoder);
      current = (current + symbol - full) & 3;
    }
    corrupt = true;
    return lastTime[current];
  }

  void encode(ArithmeticEncoder& encoder, uint64_t time) {
    for (;;) {
      const int64_t diff64 = int64_t(time - lastTime[current]);
      const bool fits = diff64 == int64_t(int32_t(diff64));
      const int32_t diff = int32_t(diff64);
      if (lastDiff[current] == 0) {
        if (hasUnchangedSymbol && diff64 == 0) {
          encoder.encodeSymbol(afterZero, 0);
          return;
        }
        if (fits) {
          encoder.encodeSymbol(afterZero, 0 + hasUnchangedSymbol);
          diffCoder.encode(encoder, 0, diff, 0);
          lastDiff[current] = diff;
          extremeCount[current] = 0;
          lastTime[current] = time;
          return;
        }
        if (const uint32_t other = otherSequenceFor(time)) {
          encoder.encodeSymbol(afterZero, other + 1 + hasUnchangedSymbol);
          current = (current + other) & 3;
          continue;
        }
        encoder.encodeSymbol(afterZero, 1 + hasUnchangedSymbol);
        encodeJump(encoder, time);
        return;
      }
      if (hasUnchangedSymbol && diff64 == 0) {
        encoder.encodeSymbol(multiple, fullJumpMultiple() - 1);
        return;
      }
      if (fits) {
        encodeMultiple(encoder, diff);
        lastTime[current] = time;
        return;
      }
      if (const uint32_t other = otherSequenceFor(time)) {
        encoder.encodeSymbol(multiple, fullJumpMultiple() + other);
        current = (current + other) & 3;
        continue;
      }
      encoder.encodeSymbol(multiple, fullJumpMultiple());
      encodeJump(encoder, time);
      return;
    }
  }

 private:
  /// Symbol 0 and 2..kGpsMultiMax - kGpsMultiMin: a difference predicted as a multiple (0 has no
  /// prediction); the extremes replace the last difference after more than three in a row.
  PCV_HOST_DEVICE PCV_FORCE_INLINE int32_t decodeMultiple(ArithmeticDecoder& decoder, int32_t symbol) {
    int32_t diff;
    bool extreme = false;
    if (symbol == 0) {
      diff = diffCoder.decode(decoder, 0, 7);
      extreme = true;
    } else if (symbol < kGpsMultiMax) {
      diff = diffCoder.decode(decoder, wrappingProduct(symbol, lastDiff[current]),
                              symbol < 10 ? 2 : 3);
    } else if (symbol == kGpsMultiMax) {
      diff = diffCoder.decode(decoder, wrappingProduct(kGpsMultiMax, lastDiff[current]), 4);
      extreme = true;
    } else {
      const int32_t multi = kGpsMultiMax - symbol;
      if (multi > kGpsMultiMin) {
        diff = diffCoder.decode(decoder, wrappingProduct(multi, lastDiff[current]), 5);
      } else {
        diff = diffCoder.decode(decoder, wrappingProduct(kGpsMultiMin, lastDiff[current]), 6);
        extreme = true;
      }
    }
    if (extreme) countExtreme(diff);
    return diff;
  }

  void encodeMultiple(ArithmeticEncoder& encoder, int32_t diff) {
    const int32_t multi = gpsMultiple(diff, lastDiff[current]);
    if (multi == 1) {
      encoder.encodeSymbol(multiple, 1);
      diffCoder.encode(encoder, lastDiff[current], diff, 1);
      extremeCount[current] = 0;
    } else if (multi > 0 && multi < kGpsMultiMax) {
      encoder.encodeSymbol(multiple, uint32_t(multi));
      diffCoder.encode(encoder, wrappingProduct(multi, lastDiff[current]), diff,
                       multi < 10 ? 2 : 3);
    } else if (multi >= kGpsMultiMax) {
      encoder.encodeSymbol(multiple, uint32_t(kGpsMultiMax));
      diffCoder.encode(encoder, wrappingProduct(kGpsMultiMax, lastDiff[current]), diff, 4);
      countExtreme(diff);
    } else if (multi < 0 && multi > kGpsMultiMin) {
      encoder.encodeSymbol(multiple, uint32_t(kGpsMultiMax - multi));
      diffCoder.encode(encoder, wrappingProduct(multi, lastDiff[current]), diff, 5);
    } else if (multi < 0) {
      encoder.encodeSymbol(multiple, uint32_t(kGpsMultiMax - kGpsMultiMin));
      diffCoder.encode(encoder, wrappingProduct(kGpsMultiMin, lastDiff[current]), diff, 6);
      countExtreme(diff);
    } else {
      encoder.encodeSymbol(multiple, 0);
      diffCoder.encode(encoder, 0, diff, 7);
      countExtreme(diff);
    }
  }

  PCV_HOST_DEVICE void countExtreme(int32_t diff) {
    if (++extremeCount[current] > 3) {
      lastDiff[current] = diff;
      extremeCount[current] = 0;
    }
  }

  /// A jump: a new sequence with the high 32 bits coded against the current time's.
  PCV_HOST_DEVICE PCV_FORCE_INLINE uint64_t decodeJump(ArithmeticDecoder& decoder) {
    const uint32_t next = (newest + 1) & 3;
    const uint32_t high = uint32_t(diffCoder.decode(decoder, int32_t(lastTime[current] >> 32), 8));
    newest = next;
    lastTime[next] = (uint64_t(high) << 32) | decoder.readInt();
    current = next;
    lastDiff[current] = 0;
    extremeCount[current] = 0;
    return lastTime[current];
  }

  void encodeJump(ArithmeticEncoder& encoder, uint64_t time) {
    diffCoder.encode(encoder, int32_t(lastTime[current] >> 32), int32_t(time >> 32), 8);
    encoder.writeInt(uint32_t(time));
    newest = (newest + 1) & 3;
    current = newest;
    lastDiff[current] = 0;
    extremeCount[current] = 0;
    lastTime[current] = time;
  }

  /// 1-3: how many sequences ahead one lies whose last time is within 32 bits of `time`; 0: none.
  uint32_t otherSequenceFor(uint64_t time) const {
    for (uint32_t i = 1; i < 4; ++i) {
      const int64_t diff = int64_t(time - lastTime[(current + i) & 3]);
      if (diff == int64_t(int32_t(diff))) return i;
    }
    return 0;
  }
};

/// GPSTIME11 version 1 (decoding only): a multiple symbol of 512 values, no sequences.
struct GpsTime11V1Codec {
  uint64_t lastTime;
  int32_t lastDiff;
  int32_t extremeCount;
  SymbolModel<512> multiple;
  SymbolModel<3> afterZero;
  IntegerCoder<6> diffCoder;

  PCV_HOST_DEVICE void startChunk(const uint8_t* firstItem) {
    lastTime = loadLe<uint64_t>(firstItem);
    lastDiff = 0;
    extremeCount = 0;
    multiple.reset(512, true);
    afterZero.reset(3, true);
    diffCoder.reset(32, true);
  }

  PCV_HOST_DEVICE void decode(ArithmeticDecoder& decoder, uint8_t* item) {
    constexpr int32_t kSymbols = 512;
    if (lastDiff == 0) {
      const uint32_t symbol = decoder.decodeSymbol(afterZero);
      if (symbol == 1) {
        lastDiff = diffCoder.decode(decoder, 0, 0);
        lastTime += uint64_t(int64_t(lastDiff));
      } else if (symbol == 2) {
        lastTime = decoder.readInt64();
      }
    } else {
      const int32_t multi = int32_t(decoder.decodeSymbol(multiple));
      if (multi < kSymbols - 2) {
        int32_t diff;
        if (multi == 1) {
          diff = diffCoder.decode(decoder, lastDiff, 1);
          lastDiff = diff;
          extremeCount = 0;
        } else if (multi == 0) {
          diff = diffCoder.decode(decoder, lastDiff / 4, 2);
          if (++extremeCount > 3) {
            lastDiff = diff;
            extremeCount = 0;
          }
        } else {
          diff = diffCoder.decode(decoder, wrappingProduct(multi, lastDiff),
                                  multi < 10 ? 3 : (multi < 50 ? 4 : 5));
          if (multi == kSymbols - 3 && ++extremeCount > 3) {
            lastDiff = diff;
            extremeCount = 0;
          }
        }
        lastTime += uint64_t(int64_t(diff));
      } else if (multi < kSymbols - 1) {
        lastTime = decoder.readInt64();
      }
    }
    storeLe(item, lastTime);
  }
};

/// GPSTIME11 version 2: the shared sequences with the "unchanged" symbol.
struct GpsTime11V2Codec {
  GpsTimeSequences sequences;
  bool corrupt;

  PCV_HOST_DEVICE void startChunk(const uint8_t* firstItem, bool decoding) {
    sequences.startChunk(loadLe<uint64_t>(firstItem), true, decoding);
    corrupt = false;
  }
  PCV_HOST_DEVICE PCV_FORCE_INLINE void decode(ArithmeticDecoder& decoder, uint8_t* item) {
    storeLe(item, sequences.decode(decoder, corrupt));
  }
  void encode(ArithmeticEncoder& encoder, const uint8_t* item) {
    sequences.encode(encoder, loadLe<uint64_t>(item));
  }
};

}  // namespace pcv::laz
