/// @brief LZF decompression (the format PCD binary_compressed uses) through Debian's liblzf,
/// whose checked decoder never reads or writes out of range, so corrupt input is refused.
#pragma once

#include <cstdint>
#include <span>

namespace pcv::io {

/// Decompresses `input` into exactly `output.size()` bytes. Returns false when the input is
/// corrupt: a back reference before the start, a run past either end, or a length mismatch.
bool lzfDecompress(std::span<const uint8_t> input, std::span<uint8_t> output);

/// The largest output a valid LZF stream of `inputBytes` can produce: a 3-byte back reference
/// yields at most 264 bytes. Lets readers reject absurd sizes before allocating.
constexpr uint64_t lzfMaxExpansion(uint64_t inputBytes) {
  return inputBytes * 88 + 264;
}

}  // namespace pcv::io
