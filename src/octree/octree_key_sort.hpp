/// @brief Sorts octree keys with their indices on all cores: a parallel radix pass on the top
/// bits that differ, then an in-place radix sort (American flag) of each bucket.
#pragma once

#include <cstdint>
#include <span>

namespace pcv {

/// `sortedKeys` gets `keys` ascending and `order[i]` the index of sortedKeys[i] in `keys`
/// (equal keys in no particular order).
void sortOctreeKeys(std::span<const uint64_t> keys, std::span<uint64_t> sortedKeys,
                    std::span<uint32_t> order);

}  // namespace pcv
