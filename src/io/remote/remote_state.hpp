/// @brief What the remote sources of the process share: counters and the memory block cache.
#pragma once

#include <atomic>
#include <cstdint>

#include "block_cache.hpp"

namespace pcv::io {

struct RemoteCounterValues {
  std::atomic<uint64_t> requests{0}, retries{0}, bytesFetched{0}, memoryCacheHits{0},
      diskCacheHits{0};
};

RemoteCounterValues& remoteCounterValues();
BlockCache& remoteBlockCache();

}  // namespace pcv::io
