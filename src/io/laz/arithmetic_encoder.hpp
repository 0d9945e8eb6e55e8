/// @brief The LAZ arithmetic encoder (host only): the exact inverse of ArithmeticDecoder, writing
/// one block of compressed bytes into a growing buffer that the caller copies into the file.
#pragma once

#include <cstdint>
#include <vector>

#include "arithmetic_decoder.hpp"
#include "entropy_models.hpp"

namespace pcv::laz {

class ArithmeticEncoder {
 public:
  /// Starts a new block; the buffer keeps its capacity.
  void start() {
    bytes_.clear();
    base_ = 0;
    length_ = 0xFFFFFFFFu;
  }

  void encodeBit(BitModel& model, uint32_t bit) {
    const uint32_t split = model.zeroProbability * (length_ >> kBitModelShift);
    if (bit == 0) {
      length_ = split;
    } else {
      advanceBase(split);
      length_ -= split;
    }
    if (length_ < kMinIntervalLength) renormalize();
    model.count(bit);
  }

  template <uint32_t kCapacity>
  void encodeSymbol(SymbolModel<kCapacity>& model, uint32_t symbol) {
    // The last symbol takes the rest of the interval, so no product is needed for its end.
    if (symbol == model.symbols - 1) {
      const uint32_t low = model.cumulative[symbol] * (length_ >> kSymbolModelShift);
      advanceBase(low);
      length_ -= low;
    } else {
      length_ >>= kSymbolModelShift;
      const uint32_t low = model.cumulative[symbol] * length_;
      advanceBase(low);
      length_ = model.cumulative[symbol + 1] * length_ - low;
    }
    if (length_ < kMinIntervalLength) renormalize();
    model.count(symbol);
  }

  /// `bits` (1-32) raw bits of `value`, low 16 first when more than 19.
  void writeBits(uint32_t bits, uint32_t value) {
    if (bits > 19) {
      writeShort(value & 0xFFFFu);
      value >>= 16;
      bits -= 16;
    }
    length_ >>= bits;
    advanceBase(value * length_);
    if (length_ < kMinIntervalLength) renormalize();
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
    bool threeZeros = true;
    const uint32_t before = base_;
    if (length_ > 2 * kMinIntervalLength) {
      base_ += kMinIntervalLength;
      length_ = kMinIntervalLength >> 1;
    } else {
      base_ += kMinIntervalLength >> 1;
      length_ = kMinIntervalLength >> 9;
      threeZeros = false;
    }
    if (before > base_) propagateCarry();
    renormalize();
    bytes_.push_back(0);
    bytes_.push_back(0);
    if (threeZeros) bytes_.push_back(0);
  }

  /// The block's bytes (complete after finish()).
  const std::vector<uint8_t>& bytes() const { return bytes_; }

 private:
  void advanceBase(uint32_t amount) {
    const uint32_t before = base_;
    base_ += amount;
    if (before > base_) propagateCarry();
  }

  void propagateCarry() {
    size_t i = bytes_.size();
    while (i > 0 && bytes_[i - 1] == 0xFF) bytes_[--i] = 0;
    if (i > 0) ++bytes_[i - 1];
  }

  void renormalize() {
    do {
      bytes_.push_back(uint8_t(base_ >> 24));
      base_ <<= 8;
    } while ((length_ <<= 8) < kMinIntervalLength);
  }

  std::vector<uint8_t> bytes_;
  uint32_t base_ = 0;
  uint32_t length_ = 0xFFFFFFFFu;
};

}  // namespace pcv::laz
