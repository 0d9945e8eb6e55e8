/// @brief The BYTE item (a record's extra bytes in point formats 0-5): each byte coded as its
/// difference to the same byte of the last point, one model per byte position (version 2) or one
/// integer coder with a context per byte (version 1). The byte count comes from the file, so the
/// per-byte state is sized once when the decoder is set up.
#pragma once

#include <cstdint>
#include <vector>

#include "arithmetic_decoder.hpp"
#include "entropy_models.hpp"
#include "integer_coder.hpp"
#include "record_bytes.hpp"

namespace pcv::laz {

/// A byte coded as its difference (modulo 256) to the same byte of the last point.
PCV_HOST_DEVICE inline uint8_t decodeByteAfter(ArithmeticDecoder& decoder, SymbolModel<256>& model,
                                               uint32_t last) {
  return wrapByte(int32_t(last + decoder.decodeSymbol(model)));
}

struct ByteV2Codec {
  std::vector<uint8_t> last;
  std::vector<SymbolModel<256>> diff;  ///< by byte position

  explicit ByteV2Codec(uint32_t byteCount) : last(byteCount), diff(byteCount) {}

  void startChunk(const uint8_t* firstItem, bool decoding) {
    for (size_t i = 0; i < last.size(); ++i) {
      last[i] = firstItem[i];
      diff[i].reset(256, decoding);
    }
  }
  void decode(ArithmeticDecoder& decoder, uint8_t* item) {
    for (size_t i = 0; i < last.size(); ++i) {
      last[i] = decodeByteAfter(decoder, diff[i], last[i]);
      item[i] = last[i];
    }
  }
  void encode(ArithmeticEncoder& encoder, const uint8_t* item) {
    for (size_t i = 0; i < last.size(); ++i) {
      encoder.encodeSymbol(diff[i], wrapByte(int32_t(item[i]) - int32_t(last[i])));
      last[i] = item[i];
    }
  }
};

/// Version 1 (decoding only).
struct ByteV1Codec {
  std::vector<uint8_t> last;
  CorrectorModels correctors;
  std::vector<SymbolModel<33>> magnitude;  ///< by byte position

  explicit ByteV1Codec(uint32_t byteCount) : last(byteCount), magnitude(byteCount) {}

  void startChunk(const uint8_t* firstItem) {
    correctors.reset(8, true);
    for (size_t i = 0; i < last.size(); ++i) {
      last[i] = firstItem[i];
      magnitude[i].reset(9, true);
    }
  }
  void decode(ArithmeticDecoder& decoder, uint8_t* item) {
    for (size_t i = 0; i < last.size(); ++i) {
      const uint32_t k = decoder.decodeSymbol(magnitude[i]);
      const int32_t c = decodeCorrection(decoder, correctors, k);
      last[i] = uint8_t(applyCorrection(correctors, last[i], c));
      item[i] = last[i];
    }
  }
};

}  // namespace pcv::laz
