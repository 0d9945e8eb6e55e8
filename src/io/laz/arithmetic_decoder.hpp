/// @brief The LAZ arithmetic decoder over one block of compressed bytes (a chunk, or one layer of
/// a layered chunk). It never reads outside the block: past its end it decodes zeros and records
/// a fault, as it does when the bytes cannot come from an encoder; the caller checks the fault
/// once per block, so the per-symbol path has no exceptions and no allocation.
#pragma once

#include <cstdint>

#include "entropy_models.hpp"
#include "pcv/core/host_device.hpp"

namespace pcv::laz {

/// The interval is renormalized (a byte shifted in) whenever its length drops below 2^24.
inline constexpr uint32_t kMinIntervalLength = 0x01000000u;

enum class StreamFault : uint8_t {
  None,
  Overrun,  ///< the decoder needed bytes past the end of the block
  Invalid,  ///< the bytes decode to a state no encoder produces (a value outside the interval)
};

struct ArithmeticDecoder {
  const uint8_t* data;  ///< the block, `size` bytes
  uint64_t size;
  uint64_t position;     ///< next byte to read, at most size
  uint32_t value;        ///< code value relative to the interval base; < length in valid streams
  uint32_t length;       ///< interval length
  StreamFault fault;     ///< first fault, sticky
  uint64_t faultOffset;  ///< byte of the block where it was noticed

  /// Starts decoding `byteCount` bytes at `bytes` (reads the first four).
  PCV_HOST_DEVICE void start(const uint8_t* bytes, uint64_t byteCount) {
    data = bytes;
    size = byteCount;
    position = 0;
    fault = StreamFault::None;
    faultOffset = 0;
    length = 0xFFFFFFFFu;
    value = 0;
    for (int i = 0; i < 4; ++i) value = (value << 8) | nextByte();
    checkValue();
  }

  PCV_HOST_DEVICE bool failed() const { return fault != StreamFault::None; }

  PCV_HOST_DEVICE PCV_FORCE_INLINE uint32_t decodeBit(BitModel& model) {
    const uint32_t split = model.zeroProbability * (length >> kBitModelShift);
    const uint32_t bit = value >= split;
    if (bit == 0) {
      length = split;
    } else {
      value -= split;
      length -= split;
    }
    keepLength();
    model.count(bit);
    return bit;
  }

  template <uint32_t kCapacity>
  PCV_HOST_DEVICE PCV_FORCE_INLINE uint32_t decodeSymbol(SymbolModel<kCapacity>& model) {
    uint32_t symbol, low, high;
    if constexpr (SymbolModel<kCapacity>::kHasLookup) {
      if (model.lookupBits != 0) {
        findWithLookup(model, symbol, low, high);
      } else {
        findBySearch(model, symbol, low, high);
      }
    } else {
      findBySearch(model, symbol, low, high);
    }
    value -= low;
    length = high - low;
    keepLength();
    model.count(symbol);
    return symbol;
  }

  /// `bits` (1-32) raw bits, low bits first when more than 19.
  PCV_HOST_DEVICE PCV_FORCE_INLINE uint32_t readBits(uint32_t bits) {
    // Not recursive, so that it inlines: a call that takes the decoder's address keeps the
    // decoder in (GPU) local memory instead of registers.
    if (bits > 19) {
      const uint32_t low = readFewBits(16);
      return (readFewBits(bits - 16) << 16) | low;
    }
    return readFewBits(bits);
  }

  PCV_HOST_DEVICE PCV_FORCE_INLINE uint32_t readShort() { return readFewBits(16); }
  PCV_HOST_DEVICE PCV_FORCE_INLINE uint32_t readInt() {
    const uint32_t low = readShort();
    return (readShort() << 16) | low;
  }
  PCV_HOST_DEVICE PCV_FORCE_INLINE uint64_t readInt64() {
    const uint64_t low = readInt();
    return (uint64_t(readInt()) << 32) | low;
  }

 private:
  /// 1-19 raw bits.
  PCV_HOST_DEVICE PCV_FORCE_INLINE uint32_t readFewBits(uint32_t bits) {
    length >>= bits;
    uint32_t symbol = value / length;
    value -= length * symbol;
    if (symbol >> bits) {
      // Only a value outside the interval gets here; keep the result in range.
      flag(StreamFault::Invalid);
      symbol &= (1u << bits) - 1;
      value = 0;
    }
    keepLength();
    return symbol;
  }

  /// The symbol whose interval holds the value, and that interval [low, high) scaled to the
  /// length: a table lookup on the value's top bits, then a choice among the few candidates.
  template <uint32_t kCapacity>
  PCV_HOST_DEVICE PCV_FORCE_INLINE void findWithLookup(const SymbolModel<kCapacity>& model, uint32_t& symbol,
                                      uint32_t& low, uint32_t& high) {
    const uint32_t whole = length;
    length >>= kSymbolModelShift;
    const uint32_t scaled = value / length;
    // value < length keeps slot <= 2^lookupBits, the table's last real entry.
    const uint32_t slot = scaled >> (kSymbolModelShift - model.lookupBits);
    // The last symbol whose interval starts at or below the scaled value. The table's candidate
    // is it or the symbol before it nearly always: both intervals' bounds are loaded at once
    // and one kept without a branch, so that one load, not two in a row, waits on the table
    // (this is the serial path of every symbol). A loop that rarely runs covers the rest (the
    // sentinels stop it at the last symbol).
    symbol = model.lookup[slot];
    uint32_t start = model.cumulative[symbol];
    uint32_t next = model.cumulative[symbol + 1];
    const uint32_t after = model.cumulative[symbol + 2];
    const bool second = next <= scaled;
    symbol += second;
    start = second ? next : start;
    next = second ? after : next;
    if (next <= scaled) {
      do {
        ++symbol;
      } while (model.cumulative[symbol + 1] <= scaled);
      start = model.cumulative[symbol];
      next = model.cumulative[symbol + 1];
    }
    low = start * length;
    // Only the last symbol's upper bound is a sentinel (real bounds are below 2^15); its interval
    // ends at the whole length, the bits the shift dropped included.
    high = next < (1u << kSymbolModelShift) ? next * length : whole;
  }

  /// The same for small models (16 symbols or fewer, which have no table): the symbol is the
  /// number of interval starts at or below the value, counted without a branch. A bisection
  /// takes fewer steps but mispredicts about one branch in two.
  template <uint32_t kCapacity>
  PCV_HOST_DEVICE PCV_FORCE_INLINE void findBySearch(const SymbolModel<kCapacity>& model,
                                                     uint32_t& symbol, uint32_t& low,
                                                     uint32_t& high) {
    const uint32_t whole = length;
    length >>= kSymbolModelShift;
    symbol = 0;
    for (uint32_t s = 1; s < model.symbols; ++s) symbol += model.cumulative[s] * length <= value;
    low = model.cumulative[symbol] * length;
    high = symbol + 1 < model.symbols ? model.cumulative[symbol + 1] * length : whole;
  }

  /// Brings the interval length back to at least 2^24 by shifting in as many bytes as it has
  /// leading zero bytes. Away from the block's end this takes no branch (whether a symbol needs
  /// bytes is as good as random, a mispredicted branch per symbol or two otherwise); the last
  /// bytes go through renormalize(), which notices an overrun.
  PCV_HOST_DEVICE PCV_FORCE_INLINE void keepLength() {
    if (position + 4 <= size) {
      // 8 x the leading zero bytes (length > 0, since value < length).
      const uint32_t shift = leadingZeros(length) & 24u;
      const uint32_t next = bigEndian32(data + position);
      value = (value << shift) | uint32_t((uint64_t(next) << shift) >> 32);
      length <<= shift;
      position += shift >> 3;
    } else if (length < kMinIntervalLength) {
      *this = renormalized(*this);
    }
  }

  PCV_HOST_DEVICE static uint32_t leadingZeros(uint32_t v) {
#if defined(__CUDA_ARCH__)
    return uint32_t(__clz(v));
#else
    return uint32_t(__builtin_clz(v));
#endif
  }

  PCV_HOST_DEVICE static uint32_t bigEndian32(const uint8_t* p) {
#if defined(__CUDA_ARCH__)
    return (uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) | (uint32_t(p[2]) << 8) | p[3];
#else
    uint32_t v;
    __builtin_memcpy(&v, p, 4);
    return __builtin_bswap32(v);
#endif
  }

  PCV_HOST_DEVICE uint32_t nextByte() {
    if (position < size) return data[position++];
    flag(StreamFault::Overrun);
    return 0;
  }

  PCV_HOST_DEVICE PCV_FORCE_INLINE void flag(StreamFault what) {
    if (fault == StreamFault::None) {
      fault = what;
      faultOffset = position;
    }
  }

  /// value < length holds in every stream an encoder writes; it also keeps the lookup-table slot
  /// in range, so a broken stream is flagged and put back inside the interval.
  PCV_HOST_DEVICE void checkValue() {
    if (value >= length) {
      flag(StreamFault::Invalid);
      value = 0;
    }
  }

  /// The byte-by-byte renormalization near the block's end, where an overrun is noticed: out of
  /// line, on a copy of the state passed and returned by value. A decoder a caller keeps in a
  /// local variable then never has its address taken, so the compiler keeps its value and
  /// length in registers: otherwise every model count stored between two symbols might alias
  /// them, and each symbol would wait on a store and a reload.
  PCV_HOST_DEVICE PCV_LAZ_RARE static ArithmeticDecoder renormalized(ArithmeticDecoder d) {
    do {
      d.value = (d.value << 8) | d.nextByte();
    } while ((d.length <<= 8) < kMinIntervalLength);
    d.checkValue();
    return d;
  }
};

}  // namespace pcv::laz
