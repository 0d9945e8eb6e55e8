#include "pcv/session/stream_limits.hpp"

#include <algorithm>

#include "pcv/core/error.hpp"
#include "pcv/core/host_memory.hpp"
#include "pcv/core/point.hpp"
#include "pcv/io/remote_source.hpp"

namespace pcv {

uint64_t defaultPointBudget(const Renderer& renderer) {
  return renderer.onGpu() ? 1'000'000'000 : 10'000'000;
}

uint64_t defaultStreamMemoryBytes(uint64_t freeBytes, bool onGpu, uint64_t pointBudget,
                                  double poolBytesPerPoint) {
  // Half of what is free at most: the rest is for the sets of files added beside the stream
  // (the viewer's Add), laid out outside its reserved pool; one that does not fit there is
  // refused with the sizes. The cpu backend's pool is host memory, filled when it is reserved:
  // four frames' worth of points, so that what the view turns from stays cached, and no more.
  const uint64_t share =
      onGpu ? freeBytes / 2 : std::min(freeBytes / 4, pointBudget * 4 * sizeof(Point));
  // And no more than half the points the framebuffer's 32-bit payload names: on a large GPU
  // half the free memory holds several billion points, which no renderer can draw.
  const uint64_t nameable = uint64_t(poolBytesPerPoint * double(kMaxPointCount / 2));
  return std::min(share, nameable);
}

StreamingOptions streamingOptionsFor(const StreamLimits& limits, const Renderer& renderer,
                                     std::vector<std::string>& notes) {
  StreamingOptions options;
  const bool onGpu = renderer.onGpu();
  options.pointBudget = limits.pointBudget;
  if (options.pointBudget == 0) {
    options.pointBudget = defaultPointBudget(renderer);
    notes.push_back("point budget " + std::to_string(options.pointBudget) +
                    " per frame (--point-budget)");
  }
  options.gpuMemoryBytes = limits.gpuMemoryBytes;
  if (options.gpuMemoryBytes == 0) {
    const uint64_t free = renderer.freeMemoryBytes();
    if (free == UINT64_MAX) throw InputError("the free memory is unknown: give --gpu-memory");
    options.gpuMemoryBytes =
        defaultStreamMemoryBytes(free, onGpu, options.pointBudget, renderer.poolBytesPerPoint());
    notes.push_back(formatBytes(double(options.gpuMemoryBytes)) + " for resident nodes, of " +
                    formatBytes(double(free)) + " free (--gpu-memory)");
  }
  options.filterData = limits.filterData;
  options.rangeAttribute = limits.rangeAttribute;
  options.hostMemoryBytes = limits.memoryBytes;
  if (options.hostMemoryBytes == 0) {
    const uint64_t available = availableHostMemoryBytes();
    options.hostMemoryBytes =
        available == UINT64_MAX ? 1ull << 30 : std::min<uint64_t>(available / 8, 4ull << 30);
  }
  return options;
}

void applyRemoteLimits(const StreamLimits& limits) {
  RemoteOptions options = remoteOptions();
  if (limits.httpConnections > 0) options.connections = limits.httpConnections;
  if (limits.httpTimeoutSeconds > 0) options.requestTimeoutSeconds = limits.httpTimeoutSeconds;
  if (limits.tileOrigins == "any") {
    options.tilesOnVpcOrigin = false;
  } else if (limits.tileOrigins.empty() || limits.tileOrigins == "same") {
    options.tilesOnVpcOrigin = true;
  } else {
    throw InputError("tile origins \"" + limits.tileOrigins + "\": expected same or any");
  }
  constexpr uint64_t kDefaultCacheBytes = 256ull << 20;
  options.memoryCacheBytes =
      limits.memoryBytes > 0 ? limits.memoryBytes / 4 : std::min(kDefaultCacheBytes, availableHostMemoryBytes() / 8);
  setRemoteOptions(options);
}

}  // namespace pcv
