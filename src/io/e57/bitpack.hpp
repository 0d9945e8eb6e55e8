/// @brief The bitpack codec, E57's only standard codec: a field's values, each in the same
/// number of bits (1 to 64), packed least significant bit first into one continuous
/// little-endian bit stream, so a value may straddle any byte, word or packet boundary.
#pragma once

#include <cstddef>
#include <cstdint>

namespace pcv::io::e57 {

/// Bytes past the last packed byte that unpackBits may read (and ignore): callers pad their
/// buffers with this many bytes.
constexpr size_t kUnpackPadding = 8;

/// Unpacks `count` values of `bitWidth` bits (1..64) each, the first one starting `bitOffset`
/// (0..7) bits into `bytes`, into `values` (zero-extended).
void unpackBits(const uint8_t* bytes, unsigned bitOffset, unsigned bitWidth, size_t count,
                uint64_t* values);

}  // namespace pcv::io::e57
