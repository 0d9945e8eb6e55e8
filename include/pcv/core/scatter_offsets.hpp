/// @brief The offsets of a stable parallel scatter (a radix sort pass, a partition into cells):
/// each thread counted its items per bucket; each thread's items of a bucket then go after
/// those of the threads before it, buckets in order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace pcv {

/// `counts[t * buckets + b]` is thread t's count of bucket b; each becomes where that thread's
/// items of that bucket start. Returns each bucket's start and, last, the total.
std::vector<uint64_t> scatterOffsets(std::vector<uint64_t>& counts, size_t buckets,
                                     unsigned threads);

}  // namespace pcv
