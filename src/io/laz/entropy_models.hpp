/// @brief The adaptive probability models of the LAZ arithmetic coder (a bit model and a symbol
/// model), whose update rule is part of the bitstream: encoder and decoder must adapt identically.
/// Plain state with fixed capacity and no allocation, so the same code can run on the GPU.
#pragma once

#include <cstdint>

#include "pcv/core/host_device.hpp"

namespace pcv::laz {

/// The coder multiplies a probability with the interval length shifted right by these amounts,
/// so bit probabilities are 13-bit and symbol probabilities 15-bit fixed point.
inline constexpr uint32_t kBitModelShift = 13;
inline constexpr uint32_t kSymbolModelShift = 15;

/// Re-estimation runs once every few dozen to few thousand symbols: kept out of line on the CPU
/// so that the per-symbol path the decoders inline stays small (no registers to save and
/// restore around it). CUDA builds leave the choice to nvcc.
#if defined(__CUDACC__)
#define PCV_LAZ_RARE
#else
#define PCV_LAZ_RARE __attribute__((noinline))
#endif

/// Probability of a 0 bit, re-estimated from the counts every few bits (first every 4 bits, the
/// interval growing by 5/4 up to 64).
struct BitModel {
  uint32_t zeroProbability;  ///< P(bit == 0) in 1/2^13
  uint32_t zeroCount;        ///< zeros seen since the last halving, plus one
  uint32_t bitCount;         ///< bits seen since the last halving, plus two
  uint32_t updateInterval;   ///< bits between re-estimations
  uint32_t bitsUntilUpdate;

  PCV_HOST_DEVICE void reset() {
    zeroCount = 1;
    bitCount = 2;
    zeroProbability = 1u << (kBitModelShift - 1);
    updateInterval = bitsUntilUpdate = 4;
  }

  PCV_HOST_DEVICE PCV_LAZ_RARE void reestimate() {
    constexpr uint32_t kMaxCount = 1u << kBitModelShift;
    if ((bitCount += updateInterval) > kMaxCount) {
      bitCount = (bitCount + 1) >> 1;
      zeroCount = (zeroCount + 1) >> 1;
      if (zeroCount == bitCount) ++bitCount;
    }
    const uint32_t scale = 0x80000000u / bitCount;
    zeroProbability = (zeroCount * scale) >> (31 - kBitModelShift);
    updateInterval = (5 * updateInterval) >> 2;
    if (updateInterval > 64) updateInterval = 64;
    bitsUntilUpdate = updateInterval;
  }

  /// Counts one coded bit and re-estimates when due.
  PCV_HOST_DEVICE void count(uint32_t bit) {
    if (bit == 0) ++zeroCount;
    if (--bitsUntilUpdate == 0) reestimate();
  }
};

/// Bits of the decoder's lookup table for a model of `symbols` symbols; 0 means no table (small
/// alphabets are searched directly). The table only narrows the search, so its size is free:
/// a slot per symbol (LASzip keeps one per four) leaves the search a step or none, about 5 %
/// faster overall. At most 9 bits, so that the slot of
/// the largest scaled value (just under 2^15 + 2^6) stays inside the table.
PCV_HOST_DEVICE constexpr uint32_t lookupBitsFor(uint32_t symbols) {
  if (symbols <= 16) return 0;
  uint32_t bits = 3;
  while (bits < 9 && symbols > (1u << bits)) ++bits;
  return bits;
}

/// Cumulative distribution over up to kCapacity symbols (the model of a file uses `symbols` of
/// them), re-estimated from the symbol counts at growing intervals (first (n + 6) / 2 symbols, then
/// 5/4 longer each time, at most 8 (n + 6)). A decoder also keeps a table from the top bits of a
/// scaled value to the first candidate symbol, which only speeds up the search.
template <uint32_t kCapacity>
struct SymbolModel {
  static_assert(kCapacity >= 2 && kCapacity <= 2048, "LAZ symbol models have 2 to 2048 symbols");
  static constexpr bool kHasLookup = lookupBitsFor(kCapacity) != 0;
  static constexpr uint32_t kLookupCapacity = kHasLookup ? (1u << lookupBitsFor(kCapacity)) + 2 : 1;

  uint32_t symbols;     ///< alphabet size, at most kCapacity
  uint32_t lookupBits;  ///< 0: no lookup table (encoder, or 16 symbols or fewer)
  uint32_t totalCount;  ///< sum of counts since the last halving
  uint32_t updateInterval;
  uint32_t symbolsUntilUpdate;
  /// P(symbol < s) in 1/2^15; cumulative[symbols] and cumulative[symbols + 1] are sentinels above
  /// every scaled value, so a decoder's search needs no bound and may read one entry ahead.
  uint32_t cumulative[kCapacity + 2];
  uint32_t counts[kCapacity];
  uint32_t lookup[kLookupCapacity];  ///< first candidate symbol per slot of the scaled value

  /// Starts over with equal counts; `withLookup` builds the decoder's table.
  PCV_HOST_DEVICE void reset(uint32_t symbolCount, bool withLookup) {
    symbols = symbolCount;
    lookupBits = withLookup ? lookupBitsFor(symbolCount) : 0;
    totalCount = 0;
    updateInterval = symbols;
    for (uint32_t s = 0; s < symbols; ++s) counts[s] = 1;
    reestimate();
    symbolsUntilUpdate = updateInterval = (symbols + 6) >> 1;
  }

  PCV_HOST_DEVICE PCV_LAZ_RARE void reestimate() {
    constexpr uint32_t kMaxCount = 1u << kSymbolModelShift;
    if ((totalCount += updateInterval) > kMaxCount) {
      totalCount = 0;
      for (uint32_t s = 0; s < symbols; ++s) totalCount += (counts[s] = (counts[s] + 1) >> 1);
    }
    const uint32_t scale = 0x80000000u / totalCount;
    uint32_t sum = 0;
    if (!kHasLookup || lookupBits == 0) {
      for (uint32_t s = 0; s < symbols; ++s) {
        cumulative[s] = (scale * sum) >> (31 - kSymbolModelShift);
        sum += counts[s];
      }
    } else if constexpr (kHasLookup) {
      const uint32_t shift = kSymbolModelShift - lookupBits;
      const uint32_t slots = 1u << lookupBits;
      uint32_t slot = 0;
      for (uint32_t s = 0; s < symbols; ++s) {
        cumulative[s] = (scale * sum) >> (31 - kSymbolModelShift);
        sum += counts[s];
        const uint32_t firstSlot = cumulative[s] >> shift;
        while (slot < firstSlot) lookup[++slot] = s - 1;
      }
      lookup[0] = 0;
      while (slot <= slots) lookup[++slot] = symbols - 1;
    }
    cumulative[symbols] = cumulative[symbols + 1] = 0xFFFFFFFFu;
    updateInterval = (5 * updateInterval) >> 2;
    const uint32_t maxInterval = (symbols + 6) << 3;
    if (updateInterval > maxInterval) updateInterval = maxInterval;
    symbolsUntilUpdate = updateInterval;
  }

  /// Counts one coded symbol and re-estimates when due.
  PCV_HOST_DEVICE void count(uint32_t symbol) {
    ++counts[symbol];
    if (--symbolsUntilUpdate == 0) reestimate();
  }
};

/// One model per key (a previous byte value, say), each reset the first time its key is used in a
/// chunk: the same as resetting all of them at the start of the chunk, without touching the ones
/// a chunk never uses.
template <uint32_t kKeys, uint32_t kSymbols>
struct KeyedSymbolModels {
  uint64_t ready[(kKeys + 63) / 64];  ///< bit per key: reset in this chunk
  SymbolModel<kSymbols> models[kKeys];

  PCV_HOST_DEVICE void startChunk() {
    for (auto& word : ready) word = 0;
  }
  PCV_HOST_DEVICE SymbolModel<kSymbols>& at(uint32_t key, bool withLookup) {
    const uint64_t bit = uint64_t(1) << (key & 63);
    if (!(ready[key >> 6] & bit)) {
      ready[key >> 6] |= bit;
      models[key].reset(kSymbols, withLookup);
    }
    return models[key];
  }
};

}  // namespace pcv::laz
