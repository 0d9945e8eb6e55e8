/// @brief Wave packet descriptors (point formats 4, 5, 9, 10): the descriptor index as a symbol,
/// the waveform offset as one of four cases (same, last plus last size, a 32-bit difference, raw),
/// the other fields (size, return point, x/y/z step floats taken as their bits) against the last
/// point's. Shared by WAVEPACKET13 (version 1) and the WAVEPACKET14 layer; the last descriptor
/// is passed in because version 3 layered files predict from another scanner channel's.
#pragma once

#include <cstdint>
#include <cstring>

#include "arithmetic_decoder.hpp"
#include "entropy_models.hpp"
#include "integer_coder.hpp"
#include "record_bytes.hpp"

namespace pcv::laz {

inline constexpr uint32_t kWavePacketBytes = 29;

/// Record offsets: index 0, offset 1, size 9, return point 13, x/y/z 17, 21, 25.
struct WavePacket {
  uint8_t index;
  uint64_t offset;
  uint32_t size;
  uint32_t returnPoint;
  uint32_t step[3];

  PCV_HOST_DEVICE void load(const uint8_t* item) {
    index = item[0];
    offset = loadLe<uint64_t>(item + 1);
    size = loadLe<uint32_t>(item + 9);
    returnPoint = loadLe<uint32_t>(item + 13);
    for (int a = 0; a < 3; ++a) step[a] = loadLe<uint32_t>(item + 17 + 4 * a);
  }
  PCV_HOST_DEVICE void store(uint8_t* item) const {
    item[0] = index;
    storeLe(item + 1, offset);
    storeLe(item + 9, size);
    storeLe(item + 13, returnPoint);
    for (int a = 0; a < 3; ++a) storeLe(item + 17 + 4 * a, step[a]);
  }
};

struct WavePacketCoder {
  int32_t lastOffsetDiff;   ///< the last 32-bit offset difference coded
  uint32_t lastOffsetCase;  ///< context of the offset case
  SymbolModel<256> index;
  SymbolModel<4> offsetCase[4];
  IntegerCoder<1> offsetCoder, sizeCoder, returnPointCoder;
  IntegerCoder<3> stepCoder;

  /// `models` false leaves the models alone (a layered decoder not asked for wave packets never
  /// uses them).
  PCV_HOST_DEVICE void start(bool decoding, bool models = true) {
    lastOffsetDiff = 0;
    lastOffsetCase = 0;
    if (!models) return;
    index.reset(256, decoding);
    for (auto& model : offsetCase) model.reset(4, decoding);
    offsetCoder.reset(32, decoding);
    sizeCoder.reset(32, decoding);
    returnPointCoder.reset(32, decoding);
    stepCoder.reset(32, decoding);
  }

  /// Decodes the descriptor after `last` into `item` and `last`.
  PCV_HOST_DEVICE void decode(ArithmeticDecoder& decoder, WavePacket& last, uint8_t* item) {
    WavePacket next;
    next.index = uint8_t(decoder.decodeSymbol(index));
    lastOffsetCase = decoder.decodeSymbol(offsetCase[lastOffsetCase]);
    switch (lastOffsetCase) {
      case 0:
        next.offset = last.offset;
        break;
      case 1:
        next.offset = last.offset + last.size;
        break;
      case 2:
        lastOffsetDiff = offsetCoder.decode(decoder, lastOffsetDiff);
        next.offset = last.offset + uint64_t(int64_t(lastOffsetDiff));
        break;
      default:
        next.offset = decoder.readInt64();
        break;
    }
    next.size = uint32_t(sizeCoder.decode(decoder, int32_t(last.size)));
    next.returnPoint = uint32_t(returnPointCoder.decode(decoder, int32_t(last.returnPoint)));
    for (uint32_t a = 0; a < 3; ++a) {
      next.step[a] = uint32_t(stepCoder.decode(decoder, int32_t(last.step[a]), a));
    }
    next.store(item);
    last = next;
  }

  void encode(ArithmeticEncoder& encoder, WavePacket& last, const uint8_t* item) {
    WavePacket next;
    next.load(item);
    encoder.encodeSymbol(index, next.index);
    const int64_t diff = int64_t(next.offset - last.offset);
    uint32_t offsetKind;
    if (diff == 0) {
      offsetKind = 0;
    } else if (next.offset == last.offset + last.size) {
      offsetKind = 1;
    } else if (diff == int64_t(int32_t(diff))) {
      offsetKind = 2;
    } else {
      offsetKind = 3;
    }
    encoder.encodeSymbol(offsetCase[lastOffsetCase], offsetKind);
    lastOffsetCase = offsetKind;
    if (offsetKind == 2) {
      offsetCoder.encode(encoder, lastOffsetDiff, int32_t(diff));
      lastOffsetDiff = int32_t(diff);
    } else if (offsetKind == 3) {
      encoder.writeInt64(next.offset);
    }
    sizeCoder.encode(encoder, int32_t(last.size), int32_t(next.size));
    returnPointCoder.encode(encoder, int32_t(last.returnPoint), int32_t(next.returnPoint));
    for (uint32_t a = 0; a < 3; ++a) {
      stepCoder.encode(encoder, int32_t(last.step[a]), int32_t(next.step[a]), a);
    }
    last = next;
  }
};

/// The WAVEPACKET13 item.
struct WavePacket13Codec {
  WavePacket last;
  WavePacketCoder coder;

  PCV_HOST_DEVICE void startChunk(const uint8_t* firstItem, bool decoding) {
    last.load(firstItem);
    coder.start(decoding);
  }
  PCV_HOST_DEVICE void decode(ArithmeticDecoder& decoder, uint8_t* item) {
    coder.decode(decoder, last, item);
  }
  void encode(ArithmeticEncoder& encoder, const uint8_t* item) {
    coder.encode(encoder, last, item);
  }
};

}  // namespace pcv::laz
