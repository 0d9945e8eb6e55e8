/// @brief The stable order of 64-bit keys on all cores (a radix sort): the host twin of the
/// GPU's radix sort of Morton codes, so both lay points out in the same order.
#pragma once

#include <cstdint>
#include <span>

namespace pcv {

/// Writes to `order` (as long as `keys`, fewer than 2^32 of them) the permutation that sorts
/// `keys` stably: order[i] is the index of the i-th smallest key, equal keys by index. Only the
/// bits that differ between keys are sorted. `keys` is scratch: its contents are lost. Besides
/// the arguments it holds a second key buffer (8 bytes a key) and, unless `indexScratch` is as
/// long as `keys` (its contents are then lost too), a second index buffer (4 bytes a key).
void stableRadixOrder(std::span<uint64_t> keys, std::span<uint32_t> order,
                      std::span<uint32_t> indexScratch = {});

}  // namespace pcv
