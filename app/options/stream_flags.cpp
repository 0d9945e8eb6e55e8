#include "options/stream_flags.hpp"

#include <map>
#include <string>

namespace pcv::app {

void addStreamFlags(CLI::App& command, StreamLimits& flags) {
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
  addRemoteFlags(command, flags);
  command.add_flag("--in-core", flags.inCore,
                   "Read a COPC file whole instead of streaming its octree");
}

void addRemoteFlags(CLI::App& command, StreamLimits& flags) {
  command
      .add_option("--http-connections", flags.httpConnections,
                  "URLs (http://, https://, s3://): range requests in flight at most (default 16)")
      ->check(CLI::Range(1, 256));
  command
      .add_option("--http-timeout", flags.httpTimeoutSeconds,
                  "URLs: seconds an HTTP request may take at most, its retries included, before "
                  "pcv ends with an error (default 60; besides, a transfer under 1 KiB/s for 20 s "
                  "is cut)")
      ->check(CLI::Range(0.1, 86400.0));
  command
      .add_option("--tile-origins", flags.tileOrigins,
                  "A VPC read over HTTP: 'same' (default) opens only tiles and overviews on the "
                  "VPC's own scheme, host and port; 'any' follows its hrefs to other servers "
                  "(never to local files)")
      ->check(CLI::IsMember({"same", "any"}));
  command.add_flag("--skip-bad-tiles", flags.skipBadTiles,
                   "A dataset: leave out, with a warning each, the tiles that cannot be opened "
                   "(default: the first such tile ends the command with its error)");
}

void addStreamTimeLimit(CLI::App& command, double& seconds) {
  command
      .add_option("--stream-time-limit", seconds,
                  "A streamed scene (COPC, a dataset): seconds to wait for the view to converge "
                  "before drawing what is there")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
}

}  // namespace pcv::app
