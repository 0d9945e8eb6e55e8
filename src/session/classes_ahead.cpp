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

void requireClassifyLast(std::span<const PointEdit> edits, const char* caller) {
  if (edits.empty() || edits.back().action != EditAction::Classify) {
    throw Error(std::string(caller) + ": the last edit is not a Classify edit");
  }
}

}  // namespace

ClassesAheadPlan planClassesAhead(const std::vector<std::string>& inputs,
                                  std::span<const PointEdit> edits, uint64_t memoryBytes,
                                  uint64_t heldBytes) {
  requireClassifyLast(edits, "planClassesAhead");
  const ClassifySettings& settings = edits.back().classify;
  checkClassifySettings(settings);
  ClassesAheadPlan plan;
  plan.files = expandTilePaths(inputs);
  for (const std::string& file : plan.files) {
    if (isRemoteLocation(file)) {
      throw InputError(locationForMessages(file) +
                       ": a file from a URL is read-only and cannot be classified here; save "
                       "a copy (Save as) and classify that");
    }
  }
  // A save of the edit plans the same dataset (planEditSave), so it would find the same classes.
  plan.dataset = classificationDataset(plan.files, edits);
  if (plan.dataset) {
    // Each tile's run holds its neighbours' points within the buffer too.
    for (const TileClassificationJob& job : plan.dataset->jobs) {
      plan.keptBytes += job.pointCount * (sizeof(uint64_t) + sizeof(uint8_t));
      plan.largestRunBytes = std::max(plan.largestRunBytes,
                                      tileClassificationBytes(job, settings, plan.dataset->buffer) +
                                          job.windowPoints * kGatheredBytesPerPoint);
    }
  } else {
    for (const Tile& tile : describeTiles(plan.files).tiles) {
      plan.keptBytes += tile.pointCount * (sizeof(uint64_t) + sizeof(uint8_t));
      plan.largestRunBytes = std::max(plan.largestRunBytes,
                                      classificationBytes(tile.pointCount, tile.bounds, settings) +
                                          tile.pointCount * kGatheredBytesPerPoint);
    }
  }
  const uint64_t budget = memoryBytes ? memoryBytes : machineMemoryBytes() / 2;
  if (plan.bytes() + heldBytes > budget) {
    throw InputError(
        "classifying these " + std::to_string(plan.files.size()) + " files here would hold " +
        gib(plan.bytes()) +
        (heldBytes ? " beside the " + gib(heldBytes) + " of classes found before" : "") +
        ", more than the " + gib(budget) +
        " allowed; pcv classify classifies them tile by tile in bounded memory");
  }
  plan.budgetBytes = budget - heldBytes;
  return plan;
}

std::shared_ptr<const FoundFileClasses> findClassesAhead(
    const ClassesAheadPlan& plan, std::span<const PointEdit> edits, const std::atomic<bool>* cancel,
    const std::function<void(size_t)>& filesDone) {
  requireClassifyLast(edits, "findClassesAhead");
  const std::vector<std::string>& files = plan.files;
  const TiledClassificationPlan* dataset = plan.dataset ? &*plan.dataset : nullptr;
  // Files at once, as many as the cores and the memory beside the classes kept allow (one at
  // least), each with its share of the cores, as pcv classify shares them among tiles.
  const uint64_t room = plan.budgetBytes > plan.keptBytes ? plan.budgetBytes - plan.keptBytes : 0;
  const unsigned cores = workerCount();
  const unsigned lanes = unsigned(std::max<uint64_t>(
      1, std::min<uint64_t>(
             {cores, files.size(), room / std::max<uint64_t>(1, plan.largestRunBytes)})));
  std::vector<FoundClasses> found(files.size());
  std::atomic<size_t> done{0};
  {
    const WorkerLimit fileThreads(lanes);
    parallelForEachDynamic(files.size(), [&](size_t f) {
      if (cancel && cancel->load()) throw ConversionCancelled("classification cancelled");
      const WorkerLimit share(std::max(1u, cores / lanes));
      found[f] = findEditClasses(files[f], edits, edits.size() - 1, cancel, dataset);
      const size_t count = ++done;
      if (filesDone) filesDone(count);
    });
  }
  auto byFile = std::make_shared<FoundFileClasses>();
  for (size_t f = 0; f < files.size(); ++f) byFile->add(files[f], std::move(found[f]));
  return byFile;
}

}  // namespace pcv
