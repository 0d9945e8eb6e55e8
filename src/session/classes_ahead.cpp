#include "pcv/session/classes_ahead.hpp"

#include <algorithm>
#include <cstdio>

#include "pcv/core/error.hpp"
#include "pcv/core/host_memory.hpp"
#include "pcv/core/parallel.hpp"
#include "pcv/io/copc_writer.hpp"  // ConversionCancelled
#include "pcv/io/remote_source.hpp"
#include "pcv/io/uri_reference.hpp"
#include "pcv/session/tiled_classification.hpp"
#include "pcv/stream/tile_set.hpp"

namespace pcv {
namespace {

/// Bytes a selected point costs a file's run besides the filters: its index and position as
/// gathered, then its position again for the classifier.
constexpr uint64_t kGatheredBytesPerPoint = 2 * sizeof(uint64_t) + 2 * 3 * sizeof(double);

std::string gib(uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f GiB", double(bytes) / double(uint64_t(1) << 30));
  return text;
}

/// What finding a Classify edit's classes in files holds: the classes found in all of them,
/// and one file's run at most.
struct RunBytes {
  uint64_t kept = 0;
  uint64_t largestRun = 0;
};

RunBytes runBytes(const std::vector<std::string>& files, std::span<const PointEdit> edits,
                  const std::optional<TiledClassificationPlan>& dataset) {
  const ClassifySettings& settings = edits.back().classify;
  RunBytes bytes;
  if (dataset) {
    // Each tile's run holds its neighbours' points within the buffer too.
    for (const TileClassificationJob& job : dataset->jobs) {
      bytes.kept += job.pointCount * (sizeof(uint64_t) + sizeof(uint8_t));
      bytes.largestRun =
          std::max(bytes.largestRun, tileClassificationBytes(job, settings, dataset->buffer) +
                                         job.windowPoints * kGatheredBytesPerPoint);
    }
    return bytes;
  }
  for (const Tile& tile : describeTiles(files).tiles) {
    bytes.kept += tile.pointCount * (sizeof(uint64_t) + sizeof(uint8_t));
    bytes.largestRun =
        std::max(bytes.largestRun, classificationBytes(tile.pointCount, tile.bounds, settings) +
                                       tile.pointCount * kGatheredBytesPerPoint);
  }
  return bytes;
}

}  // namespace

uint64_t classesAheadBytes(const std::vector<std::string>& files,
                           std::span<const PointEdit> edits) {
  const RunBytes bytes = runBytes(files, edits, classificationDataset(files, edits));
  return bytes.kept + bytes.largestRun;
}

std::vector<std::string> checkClassesAhead(const std::vector<std::string>& files,
                                           std::span<const PointEdit> edits, uint64_t memoryBytes,
                                           uint64_t heldBytes) {
  if (edits.empty() || edits.back().action != EditAction::Classify) {
    throw Error("checkClassesAhead: the last edit is not a Classify edit");
  }
  checkClassifySettings(edits.back().classify);
  std::vector<std::string> tiles = expandTilePaths(files);
  for (const std::string& tile : tiles) {
    if (isRemoteLocation(tile)) {
      throw InputError(locationForMessages(tile) +
                       ": a file from a URL is read-only and cannot be classified here; save "
                       "a copy (Save as) and classify that");
    }
  }
  const uint64_t budget = memoryBytes ? memoryBytes : machineMemoryBytes() / 2;
  const uint64_t needed = classesAheadBytes(tiles, edits);
  if (needed + heldBytes > budget) {
    throw InputError(
        "classifying these " + std::to_string(tiles.size()) + " files here would hold " +
        gib(needed) +
        (heldBytes ? " beside the " + gib(heldBytes) + " of classes found before" : "") +
        ", more than the " + gib(budget) +
        " allowed; pcv classify classifies them tile by tile in bounded memory");
  }
  return tiles;
}

std::shared_ptr<const FoundFileClasses> findClassesAhead(
    const std::vector<std::string>& files, std::span<const PointEdit> edits,
    const std::atomic<bool>* cancel, const std::function<void(size_t)>& filesDone,
    uint64_t memoryBytes) {
  if (edits.empty() || edits.back().action != EditAction::Classify) {
    throw Error("findClassesAhead: the last edit is not a Classify edit");
  }
  // A save of the edit plans the same dataset (planEditSave), so it would find the same classes.
  const std::optional<TiledClassificationPlan> dataset = classificationDataset(files, edits);
  // Files at once, as many as the cores and the memory beside the classes kept allow (one at
  // least), each with its share of the cores, as pcv classify shares them among tiles.
  const RunBytes bytes = runBytes(files, edits, dataset);
  const uint64_t budget = memoryBytes ? memoryBytes : machineMemoryBytes() / 2;
  const uint64_t room = budget > bytes.kept ? budget - bytes.kept : 0;
  const unsigned cores = workerCount();
  const unsigned lanes = unsigned(std::max<uint64_t>(
      1,
      std::min<uint64_t>({cores, files.size(), room / std::max<uint64_t>(1, bytes.largestRun)})));
  std::vector<FoundClasses> found(files.size());
  std::atomic<size_t> done{0};
  {
    const WorkerLimit fileThreads(lanes);
    parallelForEachDynamic(files.size(), [&](size_t f) {
      if (cancel && cancel->load()) throw ConversionCancelled("classification cancelled");
      const WorkerLimit share(std::max(1u, cores / lanes));
      found[f] =
          findEditClasses(files[f], edits, edits.size() - 1, cancel, dataset ? &*dataset : nullptr);
      const size_t count = ++done;
      if (filesDone) filesDone(count);
    });
  }
  auto byFile = std::make_shared<FoundFileClasses>();
  for (size_t f = 0; f < files.size(); ++f) byFile->add(files[f], std::move(found[f]));
  return byFile;
}

}  // namespace pcv
