#include "bitpack.hpp"
#include "common/byte_order.hpp"

#include <cstring>

namespace pcv::io::e57 {
namespace {

inline uint64_t load64(const uint8_t* p) {
  return loadLe<uint64_t>(p);  // the first byte is the least significant
}

/// Widths the compiler can specialise (shifts and masks become constants).
template <unsigned kWidth>
void unpackFixed(const uint8_t* bytes, unsigned bitOffset, size_t count, uint64_t* values) {
  static_assert(kWidth >= 1 && kWidth <= 56);
  constexpr uint64_t mask = (uint64_t(1) << kWidth) - 1;
  uint64_t bit = bitOffset;
  for (size_t i = 0; i < count; ++i, bit += kWidth) {
    values[i] = (load64(bytes + (bit >> 3)) >> (bit & 7)) & mask;
  }
}

/// Up to 56 bits: one unaligned 8-byte load holds the value wherever it starts in its byte.
void unpackNarrow(const uint8_t* bytes, unsigned bitOffset, unsigned bitWidth, size_t count,
                  uint64_t* values) {
  const uint64_t mask = (uint64_t(1) << bitWidth) - 1;
  uint64_t bit = bitOffset;
  for (size_t i = 0; i < count; ++i, bit += bitWidth) {
    values[i] = (load64(bytes + (bit >> 3)) >> (bit & 7)) & mask;
  }
}

/// 57 to 64 bits: a value may span nine bytes, so the ninth byte supplies the high bits.
void unpackWide(const uint8_t* bytes, unsigned bitOffset, unsigned bitWidth, size_t count,
                uint64_t* values) {
  const uint64_t mask = bitWidth == 64 ? ~uint64_t(0) : (uint64_t(1) << bitWidth) - 1;
  uint64_t bit = bitOffset;
  for (size_t i = 0; i < count; ++i, bit += bitWidth) {
    const uint8_t* p = bytes + (bit >> 3);
    const unsigned shift = unsigned(bit & 7);
    uint64_t value = load64(p) >> shift;
    if (shift != 0) value |= uint64_t(p[8]) << (64 - shift);
    values[i] = value & mask;
  }
}

}  // namespace

void unpackBits(const uint8_t* bytes, unsigned bitOffset, unsigned bitWidth, size_t count,
                uint64_t* values) {
  switch (bitWidth) {
    case 1:
      return unpackFixed<1>(bytes, bitOffset, count, values);
    case 2:
      return unpackFixed<2>(bytes, bitOffset, count, values);
    case 8:
      return unpackFixed<8>(bytes, bitOffset, count, values);
    case 16:
      return unpackFixed<16>(bytes, bitOffset, count, values);
    case 32:
      return unpackFixed<32>(bytes, bitOffset, count, values);
    default:
      if (bitWidth <= 56) return unpackNarrow(bytes, bitOffset, bitWidth, count, values);
      return unpackWide(bytes, bitOffset, bitWidth, count, values);
  }
}

}  // namespace pcv::io::e57
