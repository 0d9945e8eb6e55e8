/// @brief CRC-32C (Castagnoli), the checksum that ends every E57 page: the SSE 4.2 instruction
/// where the CPU has it, slicing-by-8 tables elsewhere; both give the same value.
#pragma once

#include <cstddef>
#include <cstdint>

namespace pcv::io::e57 {

/// CRC-32C of `size` bytes (initial value and final xor 0xffffffff, reflected polynomial
/// 0x82f63b78): crc32c("123456789") == 0xe3069283.
uint32_t crc32c(const uint8_t* data, size_t size);

/// The portable table-driven implementation, exposed so tests can compare it with the hardware
/// one on machines that have both.
uint32_t crc32cPortable(const uint8_t* data, size_t size);

}  // namespace pcv::io::e57
