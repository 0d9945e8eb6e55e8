#include "pcv/session/classes_ahead.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include "pcv/core/error.hpp"
#include "pcv/io/remote_source.hpp"
#include "pcv/io/uri_reference.hpp"
#include "pcv/session/tiled_classification.hpp"
#include "pcv/stream/tile_set.hpp"

namespace pcv {
namespace {

/// Bytes a selected point costs a file's run besides the filters: its index and position as
/// gathered, then its position again for the classifier.
constexpr uint64_t kGatheredBytesPerPoint = 2 * sizeof(uint64_t) + 2 * 3 * sizeof(double);

uint64_t halfTheMachine() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long pageBytes = ::sysconf(_SC_PAGESIZE);
  const uint64_t machine =
      pages > 0 && pageBytes > 0 ? uint64_t(pages) * uint64_t(pageBytes) : uint64_t(8) << 30;
  return machine / 2;
}

std::string gib(uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f GiB", double(bytes) / double(uint64_t(1) << 30));
  return text;
}

}  // namespace

uint64_t classesAheadBytes(const std::vector<std::string>& files,
                           std::span<const PointEdit> edits) {
  const ClassifySettings& settings = edits.back().classify;
  uint64_t kept = 0, largestRun = 0;
  if (const std::optional<TiledClassificationPlan> dataset = classificationDataset(files, edits)) {
    // Each tile's run holds its neighbours' points within the buffer too.
    for (const TileClassificationJob& job : dataset->jobs) {
      kept += job.pointCount * (sizeof(uint64_t) + sizeof(uint8_t));
      largestRun = std::max(largestRun, tileClassificationBytes(job, settings, dataset->buffer) +
                                            job.windowPoints * kGatheredBytesPerPoint);
    }
    return kept + largestRun;
  }
  for (const Tile& tile : describeTiles(files).tiles) {
    kept += tile.pointCount * (sizeof(uint64_t) + sizeof(uint8_t));
    largestRun = std::max(largestRun, classificationBytes(tile.pointCount, tile.bounds, settings) +
                                          tile.pointCount * kGatheredBytesPerPoint);
  }
  return kept + largestRun;
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
  const uint64_t budget = memoryBytes ? memoryBytes : halfTheMachine();
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
    const std::atomic<bool>* cancel, const std::function<void(size_t)>& filesDone) {
  if (edits.empty() || edits.back().action != EditAction::Classify) {
    throw Error("findClassesAhead: the last edit is not a Classify edit");
  }
  // A save of the edit plans the same dataset (planEditSave), so it would find the same classes.
  const std::optional<TiledClassificationPlan> dataset = classificationDataset(files, edits);
  auto found = std::make_shared<FoundFileClasses>();
  for (size_t f = 0; f < files.size(); ++f) {
    found->add(files[f], findEditClasses(files[f], edits, edits.size() - 1, cancel,
                                         dataset ? &*dataset : nullptr));
    if (filesDone) filesDone(f + 1);
  }
  return found;
}

}  // namespace pcv
