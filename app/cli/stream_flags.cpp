#include "stream_flags.hpp"

#include <algorithm>
#include <filesystem>
#include <map>

#include "pcv/core/error.hpp"
#include "pcv/core/host_memory.hpp"
#include "pcv/core/point.hpp"
#include "pcv/io/copc_hierarchy.hpp"

namespace pcv::app {

void addStreamFlags(CLI::App& command, StreamFlags& flags) {
  const std::map<std::string, uint64_t> counts{
      {"k", 1'000}, {"M", 1'000'000}, {"G", 1'000'000'000}};
  command
      .add_option("--point-budget", flags.pointBudget,
                  "COPC: points drawn per frame at most, e.g. 200M (default: 1G on a GPU, 10M "
                  "on the CPU)")
      ->transform(CLI::AsNumberWithUnit(counts, CLI::AsNumberWithUnit::CASE_SENSITIVE))
      ->check(CLI::PositiveNumber);
  command
      .add_option("--gpu-memory", flags.gpuMemoryBytes,
                  "COPC: memory for the resident nodes, e.g. 2G (default: half of the free GPU "
                  "memory; on the CPU backend, host memory for four times the point budget)")
      ->transform(CLI::AsSizeValue(false));
  command
      .add_option("--memory", flags.memoryBytes,
                  "COPC: host memory for decoded nodes waiting to be drawn, e.g. 1G (default: "
                  "an eighth of the available memory, at most 4G). LAS/LAZ files that take more "
                  "than this read whole (default: the available memory) are converted once to a "
                  "COPC cache ($PCV_CACHE_DIR, else ~/.cache/pcv) and streamed")
      ->transform(CLI::AsSizeValue(false));
  command.add_flag("--in-core", flags.inCore,
                   "Read a COPC file whole instead of streaming its octree");
}

uint64_t defaultPointBudget(const Renderer& renderer) {
  return renderer.backendName() == "cuda" ? 1'000'000'000 : 10'000'000;
}

StreamingOptions streamingOptionsFrom(const StreamFlags& flags, const Renderer& renderer,
                                      std::vector<std::string>& notes) {
  StreamingOptions options;
  const bool onGpu = renderer.backendName() == "cuda";
  options.pointBudget = flags.pointBudget;
  if (options.pointBudget == 0) {
    options.pointBudget = defaultPointBudget(renderer);
    notes.push_back("point budget " + std::to_string(options.pointBudget) +
                    " per frame (--point-budget)");
  }
  options.gpuMemoryBytes = flags.gpuMemoryBytes;
  if (options.gpuMemoryBytes == 0) {
    const uint64_t free = renderer.freeMemoryBytes();
    if (free == UINT64_MAX) throw InputError("the free memory is unknown: give --gpu-memory");
    // The cpu backend's pool is host memory, filled when it is fixed: four frames' worth of
    // points, so that what the view turns from stays cached, and no more.
    options.gpuMemoryBytes =
        onGpu ? free / 2 : std::min(free / 4, options.pointBudget * 4 * sizeof(Point));
    notes.push_back(formatBytes(double(options.gpuMemoryBytes)) + " for resident nodes, of " +
                    formatBytes(double(free)) + " free (--gpu-memory)");
  }
  options.hostMemoryBytes = flags.memoryBytes;
  if (options.hostMemoryBytes == 0) {
    const uint64_t available = availableHostMemoryBytes();
    options.hostMemoryBytes =
        available == UINT64_MAX ? 1ull << 30 : std::min<uint64_t>(available / 8, 4ull << 30);
  }
  return options;
}

bool streams(const std::vector<std::string>& files, const StreamFlags& flags) {
  return !flags.inCore && files.size() == 1 && isCopcFile(files[0]);
}

}  // namespace pcv::app
