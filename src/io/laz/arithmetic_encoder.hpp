/// @brief The LAZ arithmetic encoder (host only): the exact inverse of ArithmeticDecoder, writing
/// one block of compressed bytes into a growing buffer that the caller copies into the file.
///
/// Each operation reads the interval (base, length) once into locals, and stores it once after
/// renormalizing, with the bytes written through a pointer into storage grown ahead. A byte
/// stored through a pointer may alias any member, so writing through std::vector::push_back had
/// the interval reloaded and re-stored around every byte, and the compiler loaded base and length
/// as one 64-bit word just after storing them apart, which stalls the load until the stores
/// retire: a large share of the encoder's time went to the two. Renormalizing without a branch
/// (keep()) took another eighth off the encoding on the 16 cores of the GPU machine.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "arithmetic_decoder.hpp"
#include "entropy_models.hpp"
#include "pcv/core/host_device.hpp"

namespace pcv::laz {

class ArithmeticEncoder {
 public:
  /// Starts a new block; the buffer keeps its capacity.
  void start() {
    used_ = 0;
    base_ = 0;
    length_ = 0xFFFFFFFFu;
  }

  void encodeBit(BitModel& model, uint32_t bit) {
    uint32_t base = base_;
    uint32_t length = length_;
    const uint32_t split = model.zeroProbability * (length >> kBitModelShift);
    if (bit == 0) {
      length = split;
    } else {
      base = addToBase(base, split);
      length -= split;
    }
    keep(base, length);
    model.count(bit);
  }

  template <uint32_t kCapacity>
  void encodeSymbol(SymbolModel<kCapacity>& model, uint32_t symbol) {
    uint32_t length = length_;
    uint32_t low;
    // The last symbol takes the rest of the interval, so no product is needed for its end.
    if (symbol == model.symbols - 1) {
      low = model.cumulative[symbol] * (length >> kSymbolModelShift);
      length -= low;
    } else {
      length >>= kSymbolModelShift;
      low = model.cumulative[symbol] * length;
      length = model.cumulative[symbol + 1] * length - low;
    }
    keep(addToBase(base_, low), length);
    model.count(symbol);
  }

  /// `bits` (1-32) raw bits of `value`, low 16 first when more than 19.
  void writeBits(uint32_t bits, uint32_t value) {
    if (bits > 19) {
      writeShort(value & 0xFFFFu);
      value >>= 16;
      bits -= 16;
    }
    const uint32_t length = length_ >> bits;
    keep(addToBase(base_, value * length), length);
  }

  void writeShort(uint32_t value) { writeBits(16, value & 0xFFFFu); }
  void writeInt(uint32_t value) {
    writeShort(value & 0xFFFFu);
    writeShort(value >> 16);
  }
  void writeInt64(uint64_t value) {
    writeInt(uint32_t(value));
    writeInt(uint32_t(value >> 32));
  }

  /// Ends the block: the last interval bytes, then the zero bytes that bring the total to what
  /// the decoder reads (its four initial bytes plus one per renormalization).
  void finish() {
    const bool longInterval = length_ > 2 * kMinIntervalLength;
    const uint32_t base =
        addToBase(base_, longInterval ? kMinIntervalLength : kMinIntervalLength >> 1);
    // A length under 2^24 makes keep() shift out the base's top byte (two when the interval was
    // short).
    keep(base, longInterval ? kMinIntervalLength >> 1 : kMinIntervalLength >> 9);
    makeRoom(3);
    storage_[used_++] = 0;
    storage_[used_++] = 0;
    if (longInterval) storage_[used_++] = 0;
  }

  /// The block's bytes (complete after finish(); valid until the next start()).
  std::span<const uint8_t> bytes() const { return {storage_.data(), used_}; }

 private:
  /// base + amount, carried into the bytes already written when it wraps.
  uint32_t addToBase(uint32_t base, uint32_t amount) {
    const uint32_t sum = base + amount;
    if (sum < base) propagateCarry();
    return sum;
  }

  void propagateCarry() {
    const uint8_t* first = storage_.data();
    uint8_t* byte = storage_.data() + used_;
    while (byte > first && byte[-1] == 0xFF) *--byte = 0;
    if (byte > first) ++byte[-1];
  }

  /// Makes (base, length) the interval, renormalized first when it has become too short: the
  /// length's top bytes that are zero are shifted out, and as many of the base's top bytes go to
  /// the output. Inline in every operation, and without a branch on that count: whether a symbol
  /// ends a byte is as good as random, and mispredicting it cost more than storing all four of
  /// the base's bytes every time and keeping those that went out.
  PCV_FORCE_INLINE void keep(uint32_t base, uint32_t length) {
    // The length is never 0: 0, 8, 16 or 24 bits go.
    const uint32_t shifted = uint32_t(std::countl_zero(length)) & ~7u;
    makeRoom(4);
    const size_t used = used_;  // read before the store below, which may alias any member
    const uint32_t bigEndian = __builtin_bswap32(base);
    std::memcpy(storage_.data() + used, &bigEndian, 4);
    used_ = used + (shifted >> 3);
    base_ = base << shifted;
    length_ = length << shifted;
  }

  void makeRoom(size_t bytes) {
    if (storage_.size() - used_ < bytes) {
      storage_.resize(std::max<size_t>(storage_.size() * 2, 4096));
    }
  }

  std::vector<uint8_t> storage_;  ///< grown ahead of the bytes; its size is the capacity
  size_t used_ = 0;               ///< bytes written in this block
  uint32_t base_ = 0;
  uint32_t length_ = 0xFFFFFFFFu;
};

}  // namespace pcv::laz
