/// @brief LAZ's integer corrector: codes a value as the difference to a prediction. The
/// difference c is sent as k, the bit length of its interval (one adaptive model per context),
/// then its place inside [-(2^k - 1), -2^(k-1)] or [2^(k-1) + 1, 2^k]: a bit model for k = 0
/// (c is 0 or 1), a model of 2^k symbols for k <= 8, and for larger k the top 8 bits modelled and
/// the rest raw. Differences wrap modulo 2^bits.
#pragma once

#include <bit>
#include <cstdint>

#include "arithmetic_decoder.hpp"
#include "arithmetic_encoder.hpp"
#include "entropy_models.hpp"
#include "pcv/core/host_device.hpp"

namespace pcv::laz {

/// Bits of the corrector above which the low bits are sent raw.
inline constexpr uint32_t kModelledCorrectorBits = 8;

/// The models shared by all contexts of one integer coder; correctors are reset lazily, the first
/// time each k is used in a chunk.
struct CorrectorModels {
  uint32_t bits;                   ///< value width: 8, 16 or 32
  uint64_t ready;                  ///< bit k set: corrector[k - 1] reset in this chunk
  uint32_t lastK;                  ///< k of the last coded value (LAZ uses it as a context)
  bool withLookup;                 ///< decoder tables
  BitModel zeroOrOne;              ///< k == 0
  SymbolModel<256> corrector[32];  ///< index k - 1

  PCV_HOST_DEVICE void reset(uint32_t valueBits, bool decoding) {
    bits = valueBits;
    ready = 0;
    lastK = 0;
    withLookup = decoding;
    zeroOrOne.reset();
  }

  PCV_HOST_DEVICE SymbolModel<256>& correctorFor(uint32_t k) {
    SymbolModel<256>& model = corrector[k - 1];
    if (!(ready & (uint64_t(1) << k))) {
      ready |= uint64_t(1) << k;
      model.reset(k <= kModelledCorrectorBits ? 1u << k : 1u << kModelledCorrectorBits, withLookup);
    }
    return model;
  }

  /// Range of the wrapped difference: [-2^(bits-1), 2^(bits-1) - 1]; all of int32 for 32 bits.
  PCV_HOST_DEVICE int32_t minCorrection() const {
    return bits >= 32 ? INT32_MIN : -int32_t(1u << (bits - 1));
  }
};

/// Reads the difference; k is the magnitude symbol already decoded.
PCV_HOST_DEVICE PCV_FORCE_INLINE int32_t decodeCorrection(ArithmeticDecoder& decoder, CorrectorModels& models,
                                                uint32_t k) {
  models.lastK = k;
  if (k == 0) return int32_t(decoder.decodeBit(models.zeroOrOne));
  if (k >= 32) return models.minCorrection();
  uint32_t c;
  if (k <= kModelledCorrectorBits) {
    c = decoder.decodeSymbol(models.correctorFor(k));
  } else {
    const uint32_t rawBits = k - kModelledCorrectorBits;
    const uint32_t high = decoder.decodeSymbol(models.correctorFor(k));
    c = (high << rawBits) | decoder.readBits(rawBits);
  }
  // Back from [0, 2^k - 1] to the two halves of the k interval: c + 1 in the upper half,
  // c - (2^k - 1) in the lower one (the sign is as good as random: no branch).
  return int32_t(c + 1 - (uint32_t(c < (1u << (k - 1))) << k));
}

/// Adds the difference to the prediction, wrapping modulo 2^bits.
PCV_HOST_DEVICE PCV_FORCE_INLINE int32_t applyCorrection(const CorrectorModels& models, int32_t prediction,
                                               int32_t correction) {
  uint32_t real = uint32_t(prediction) + uint32_t(correction);
  if (models.bits < 32) {
    const uint32_t range = 1u << models.bits;
    if (int32_t(real) < 0) {
      real += range;
    } else if (real >= range) {
      real -= range;
    }
  }
  return int32_t(real);
}

/// Writes real - prediction (wrapped into the coder's range) with the context's magnitude model
/// (host only: encoding runs on the CPU).
template <uint32_t kCapacity>
void encodeCorrection(ArithmeticEncoder& encoder, CorrectorModels& models,
                      SymbolModel<kCapacity>& magnitude, int32_t prediction, int32_t real) {
  int32_t c = int32_t(uint32_t(real) - uint32_t(prediction));
  if (models.bits < 32) {
    const int32_t range = int32_t(1u << models.bits);
    const int32_t minimum = models.minCorrection();
    if (c < minimum) {
      c += range;
    } else if (c > minimum + range - 1) {
      c -= range;
    }
  }
  // k: bits of |c| (c - 1 for positive c, so that 2^k itself still fits in k).
  const uint32_t k = uint32_t(std::bit_width(c <= 0 ? 0u - uint32_t(c) : uint32_t(c) - 1));
  encoder.encodeSymbol(magnitude, k);
  models.lastK = k;
  if (k == 0) {
    encoder.encodeBit(models.zeroOrOne, uint32_t(c));
    return;
  }
  if (k >= 32) return;
  // Into [0, 2^k - 1]: negatives below 2^(k-1), positives from it.
  const uint32_t place = c < 0 ? uint32_t(c) + ((1u << k) - 1) : uint32_t(c) - 1;
  if (k <= kModelledCorrectorBits) {
    encoder.encodeSymbol(models.correctorFor(k), place);
  } else {
    const uint32_t rawBits = k - kModelledCorrectorBits;
    encoder.encodeSymbol(models.correctorFor(k), place >> rawBits);
    encoder.writeBits(rawBits, place & ((1u << rawBits) - 1));
  }
}

/// An integer coder with kContexts magnitude models (the caller picks the context per value).
template <uint32_t kContexts>
struct IntegerCoder {
  CorrectorModels shared;
  SymbolModel<33> magnitude[kContexts];  ///< k in 0..bits

  PCV_HOST_DEVICE void reset(uint32_t valueBits, bool decoding) {
    shared.reset(valueBits, decoding);
    for (auto& model : magnitude) model.reset(valueBits + 1, decoding);
  }

  PCV_HOST_DEVICE PCV_FORCE_INLINE int32_t decode(ArithmeticDecoder& decoder, int32_t prediction,
                                 uint32_t context = 0) {
    const uint32_t k = decoder.decodeSymbol(magnitude[context]);
    return applyCorrection(shared, prediction, decodeCorrection(decoder, shared, k));
  }

  /// k of the last value coded (both directions).
  PCV_HOST_DEVICE uint32_t lastK() const { return shared.lastK; }

  void encode(ArithmeticEncoder& encoder, int32_t prediction, int32_t real, uint32_t context = 0) {
    encodeCorrection(encoder, shared, magnitude[context], prediction, real);
  }
};

}  // namespace pcv::laz
