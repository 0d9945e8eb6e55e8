// convertTiles runs "lanes": threads that each take the next tile and convert it with its share
// of the cores (a WorkerLimit) and of the memory. With many small tiles every core converts a tile
// of its own, so a tile's serial parts (opening, the header, the last nodes, renaming) overlap
// with the others' work instead of leaving the other cores idle; when fewer tiles are left than
// lanes, a tile that starts takes the cores the finished ones gave back. The memory is split
// evenly between the lanes: the COPC writer builds a tile larger than its share through temporary
// files, and its output does not depend on the budget or the thread count, which is what makes a
// tile's bytes the same whoever converts it.
#include "pcv/core/host_memory.hpp"
#include "pcv/core/text_case.hpp"
#include "pcv/session/tile_conversion.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include "pcv/core/error.hpp"
#include "pcv/core/parallel.hpp"
#include "pcv/io/point_cloud_reader.hpp"
#include "pcv/octree/octree_lod.hpp"
#include "pcv/session/copc_conversion.hpp"

namespace pcv {
namespace {

/// The least memory worth giving one conversion: the COPC writer wants room for four full nodes
/// of its longest records (67 bytes, format 8 with extra bytes, and 21 of working memory each)
/// in three quarters of its budget; a little more, so that a tile of a few nodes stays in core.
uint64_t leastConversionBytes(uint32_t maxPointsPerNode) {
  return uint64_t(std::max<uint32_t>(1, maxPointsPerNode)) * 88 * 6;
}

/// The message of a failed tile, naming it once.
std::string tileError(const std::string& input, const std::string& what) {
  return what.find(input) == std::string::npos ? input + ": " + what : what;
}

}  // namespace

std::string copcTileName(const std::string& input) {
  std::string name = std::filesystem::path(input).filename().string();
  const std::string lower = lowerCase(name);
  if (lower.size() > 9 && lower.ends_with(".copc.laz")) {
    name.resize(name.size() - 9);
  } else if (const size_t dot = name.rfind('.'); dot != std::string::npos && dot > 0) {
    name.resize(dot);
  }
  return name + ".copc.laz";
}

std::vector<TileJob> planTileJobs(const std::vector<std::string>& inputs,
                                  const std::filesystem::path& outputDir) {
  if (inputs.empty()) throw InputError("convert --tiles needs at least one input tile");
  std::vector<TileJob> jobs;
  jobs.reserve(inputs.size());
  // Keyed by the lowercased name, so tiles that would collide on a case-insensitive disk are
  // refused everywhere alike.
  std::map<std::string, size_t> byName;
  for (const std::string& input : inputs) {
    const std::string name = copcTileName(input);
    const auto [at, fresh] = byName.emplace(lowerCase(name), jobs.size());
    if (!fresh) {
      throw InputError(input + " and " + jobs[at->second].input + " would both be written as " +
                       (outputDir / name).string() +
                       ": tiles of the same name from different folders need different output "
                       "folders (convert them in separate runs)");
    }
    std::error_code error;
    const uint64_t bytes = std::filesystem::file_size(input, error);
    if (error) throw InputError(input + ": cannot read its size: " + error.message());
    TileJob job{.input = input, .output = outputDir / name, .inputBytes = bytes};
    if (std::filesystem::exists(job.output) &&
        std::filesystem::equivalent(job.output, input, error)) {
      throw InputError(input +
                       " would be overwritten by its own conversion: give another output "
                       "folder");
    }
    jobs.push_back(std::move(job));
  }
  return jobs;
}

std::vector<size_t> tilesOfRank(std::span<const TileJob> jobs, int rank, int rankCount) {
  std::vector<size_t> order(jobs.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return jobs[a].inputBytes > jobs[b].inputBytes; });
  const int ranks = std::max(1, rankCount);
  std::vector<uint64_t> load(size_t(ranks), 0);
  std::vector<size_t> mine;
  for (const size_t job : order) {
    const size_t least = size_t(std::min_element(load.begin(), load.end()) - load.begin());
    // A tile of no bytes still counts, so empty tiles spread too.
    load[least] += std::max<uint64_t>(1, jobs[job].inputBytes);
    if (int(least) == rank) mine.push_back(job);
  }
  return mine;
}

std::vector<TileOutcome> convertTiles(std::span<const TileJob> jobs, std::span<const size_t> which,
                                      const TileConversionOptions& options,
                                      TileConversionProgress* progress) {
  TileConversionProgress unobserved;
  TileConversionProgress& shared = progress ? *progress : unobserved;
  const size_t count = which.size();
  std::vector<TileOutcome> outcomes(count);
  if (count == 0) return outcomes;

  const unsigned cores = workerCount();
  const uint64_t budget = options.memoryBytes ? options.memoryBytes : machineMemoryBytes() / 2;
  const uint64_t least = leastConversionBytes(options.maxPointsPerNode);
  const uint64_t lanesByMemory = std::max<uint64_t>(1, budget / least);
  const unsigned lanes = unsigned(std::min<uint64_t>({cores, count, lanesByMemory}));
  const uint64_t laneBytes = budget / lanes;
  shared.lanes = lanes;
  shared.tilesTotal = count;
  for (const size_t job : which) shared.bytesTotal += jobs[job].inputBytes;

  std::atomic<size_t> next{0};
  std::atomic<size_t> finished{0};
  // Each lane's running conversion, so that a cancel reaches it.
  std::vector<std::unique_ptr<CopcWriteProgress>> laneProgress(lanes);
  for (auto& p : laneProgress) p = std::make_unique<CopcWriteProgress>();
  // Lanes still running, and a wake-up for the caller's thread when one ends.
  std::mutex laneMutex;
  std::condition_variable laneEnded;
  unsigned lanesRunning = lanes;

  auto lane = [&](unsigned laneIndex) {
    CopcWriteProgress& tileProgress = *laneProgress[laneIndex];
    for (;;) {
      if (shared.cancel) break;
      const size_t slot = next.fetch_add(1);
      if (slot >= count) break;
      const TileJob& job = jobs[which[slot]];
      TileOutcome& outcome = outcomes[slot];
      outcome.job = which[slot];
      // The cores of the tiles still to finish, shared among them (at most one lane each).
      const size_t unfinished = count - finished.load();
      const unsigned threads =
          std::max<unsigned>(1, cores / unsigned(std::min<size_t>(lanes, unfinished)));
      const WorkerLimit limit(threads);
      tileProgress.pointsRead = 0;
      tileProgress.pointsWritten = 0;
      tileProgress.nodesWritten = 0;
      const auto start = std::chrono::steady_clock::now();
      try {
        // The CPU sampler: one per conversion, as conversions run at once.
        const std::unique_ptr<OctreeLodSampler> sampler = makeCpuOctreeLodSampler();
        const CopcWriteOptions copcOptions{.memoryBytes = laneBytes,
                                           .tempDirectory = options.tempDirectory,
                                           .maxPointsPerNode = options.maxPointsPerNode,
                                           .pointFormat = options.pointFormat,
                                           .sampler = sampler.get()};
        outcome.summary =
            convertFilesToCopc({job.input}, job.output.string(), copcOptions, &tileProgress);
        outcome.description = {.file = job.output, .pointCount = outcome.summary.pointCount};
        if (outcome.summary.pointCount > 0) {
          const FileSummary header = describePointFile(job.output);
          outcome.description.nativeBounds = header.worldBounds;
          outcome.description.crs = header.crs;
        }
        outcome.done = true;
      } catch (const ConversionCancelled&) {
        outcome.error = job.input + ": cancelled";
      } catch (const std::exception& error) {
        outcome.error = tileError(job.input, error.what());
      }
      outcome.seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      ++finished;
      shared.bytesDone += job.inputBytes;
      if (outcome.done) {
        shared.pointsDone += outcome.summary.pointCount;
        ++shared.tilesDone;
      } else if (!shared.cancel) {
        ++shared.tilesFailed;
      }
    }
    std::lock_guard lock(laneMutex);
    --lanesRunning;
    laneEnded.notify_all();
  };

  std::vector<std::thread> threads;
  threads.reserve(lanes);
  for (unsigned l = 0; l < lanes; ++l) threads.emplace_back(lane, l);
  // The caller's thread watches for a cancel and hands it to the running conversions.
  {
    std::unique_lock lock(laneMutex);
    while (!laneEnded.wait_for(lock, std::chrono::milliseconds(50),
                               [&] { return lanesRunning == 0; })) {
      if (shared.cancel) {
        for (auto& p : laneProgress) p->cancel = true;
      }
    }
  }
  for (std::thread& thread : threads) thread.join();
  if (shared.cancel) throw ConversionCancelled("conversion cancelled");
  return outcomes;
}

void writeTileDatasetVpc(const std::filesystem::path& path, std::vector<TileOutcome> outcomes) {
  std::sort(outcomes.begin(), outcomes.end(),
            [](const TileOutcome& a, const TileOutcome& b) { return a.job < b.job; });
  std::vector<VpcTileDescription> tiles;
  for (const TileOutcome& outcome : outcomes) {
    // A tile without points has no bounds, which a VPC item needs: its file is there, unlisted.
    if (!outcome.done || outcome.description.pointCount == 0) continue;
    if (!tiles.empty() && !outcome.description.crs.sameAs(tiles.front().crs)) {
      throw InputError("the tiles' coordinate systems differ: " + tiles.front().file.string() +
                       " is in " + tiles.front().crs.label() + ", " +
                       outcome.description.file.string() + " in " +
                       outcome.description.crs.label() + " (a VPC holds tiles of one CRS)");
    }
    tiles.push_back(outcome.description);
  }
  if (tiles.empty()) throw InputError(path.string() + ": no tile with points to list");
  writeVirtualPointCloud(path, tiles);
}

}  // namespace pcv
