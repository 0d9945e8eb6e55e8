#include "pcv/core/scatter_offsets.hpp"

namespace pcv {

std::vector<uint64_t> scatterOffsets(std::vector<uint64_t>& counts, size_t buckets,
                                     unsigned threads) {
  std::vector<uint64_t> bucketStart(buckets + 1, 0);
  uint64_t running = 0;
  for (size_t b = 0; b < buckets; ++b) {
    bucketStart[b] = running;
    for (unsigned t = 0; t < threads; ++t) {
      const uint64_t count = counts[t * buckets + b];
      counts[t * buckets + b] = running;
      running += count;
    }
  }
  bucketStart[buckets] = running;
  return bucketStart;
}

}  // namespace pcv
