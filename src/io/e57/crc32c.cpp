#include "crc32c.hpp"
#include "common/byte_order.hpp"

#include <array>
#include <cstring>

#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

namespace pcv::io::e57 {
namespace {

constexpr uint32_t kReflectedPolynomial = 0x82f63b78u;

/// tables[k][b]: the CRC of byte b followed by k zero bytes, so eight bytes fold in one step.
using SliceTables = std::array<std::array<uint32_t, 256>, 8>;

constexpr SliceTables makeSliceTables() {
  SliceTables tables{};
  for (uint32_t byte = 0; byte < 256; ++byte) {
    uint32_t crc = byte;
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ ((crc & 1u) ? kReflectedPolynomial : 0u);
    tables[0][byte] = crc;
  }
  for (uint32_t byte = 0; byte < 256; ++byte) {
    for (int k = 1; k < 8; ++k) {
      const uint32_t previous = tables[k - 1][byte];
      tables[k][byte] = (previous >> 8) ^ tables[0][previous & 0xffu];
    }
  }
  return tables;
}

constexpr SliceTables kTables = makeSliceTables();

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) uint32_t crc32cHardware(const uint8_t* data, size_t size) {
  uint64_t crc = 0xffffffffu;
  for (; size >= 8; data += 8, size -= 8) {
    crc = _mm_crc32_u64(crc, loadLe<uint64_t>(data));
  }
  uint32_t crc32 = uint32_t(crc);
  for (; size > 0; ++data, --size) crc32 = _mm_crc32_u8(crc32, *data);
  return ~crc32;
}

bool cpuHasCrc32Instruction() {
  static const bool has = __builtin_cpu_supports("sse4.2");
  return has;
}
#endif

}  // namespace

uint32_t crc32cPortable(const uint8_t* data, size_t size) {
  uint32_t crc = 0xffffffffu;
  for (; size >= 8; data += 8, size -= 8) {
    // Little-endian order of the eight bytes, as the reflected CRC consumes them.
    const uint32_t low = crc ^ (uint32_t(data[0]) | uint32_t(data[1]) << 8 |
                                uint32_t(data[2]) << 16 | uint32_t(data[3]) << 24);
    crc = kTables[7][low & 0xffu] ^ kTables[6][(low >> 8) & 0xffu] ^
          kTables[5][(low >> 16) & 0xffu] ^ kTables[4][low >> 24] ^ kTables[3][data[4]] ^
          kTables[2][data[5]] ^ kTables[1][data[6]] ^ kTables[0][data[7]];
  }
  for (; size > 0; ++data, --size) crc = (crc >> 8) ^ kTables[0][(crc ^ *data) & 0xffu];
  return ~crc;
}

uint32_t crc32c(const uint8_t* data, size_t size) {
#if defined(__x86_64__)
  if (cpuHasCrc32Instruction()) return crc32cHardware(data, size);
#endif
  return crc32cPortable(data, size);
}

}  // namespace pcv::io::e57
