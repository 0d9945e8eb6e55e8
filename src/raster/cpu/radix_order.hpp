/// @brief The stable order of 64-bit keys on all cores (a radix sort): the host twin of the
/// GPU's radix sort of Morton codes, so both lay points out in the same order.
#pragma once

#include <cstdint>
#include <span>

namespace pcv {

/// Writes to `order` (as long as `keys`, fewer than 2^32 of them) the permutation that sorts
/// `keys` stably: order[i] is the index of the i-th smallest key, equal keys by index. Only the
/// bits that differ between keys are sorted. `keys` is scratch: its contents are lost. Besides
/// the two arguments it holds 12 bytes a key (a second key and index buffer).
void stableRadixOrder(std::span<uint64_t> keys, std::span<uint32_t> order);

}  // namespace pcv
