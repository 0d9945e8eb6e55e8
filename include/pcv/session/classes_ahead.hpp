/// @brief A Classify edit on a streamed scene: its classes found ahead in the scene's files, one
/// file at a time (each file's selected points classified together, a dataset's tiles with
/// their neighbours' points, as a save of the edit classifies them), so that the stream's nodes
/// show them as they decode and the save writes them. What the run would hold is checked against
/// memory before any point is read.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "pcv/session/point_edits.hpp"
#include "pcv/session/tiled_classification.hpp"

namespace pcv {

/// What finding the classes of a Classify edit in a scene's files takes, planned from their
/// headers alone (read once, here).
struct ClassesAheadPlan {
  std::vector<std::string> files;  ///< the inputs' files (folders and VPCs expanded)
  /// The files as one dataset (classificationDataset): each tile classified with its
  /// neighbours' points, as a save of the edit classifies them.
  std::optional<TiledClassificationPlan> dataset;
  uint64_t keptBytes = 0;        ///< the classes found in every file (kept with the edit)
  uint64_t largestRunBytes = 0;  ///< one file's run at most: positions, the filters' arrays
  uint64_t budgetBytes = 0;      ///< the memory the runs share, the classes held included

  /// What the plan holds at its peak with one file's run.
  uint64_t bytes() const { return keptBytes + largestRunBytes; }
};

/// The plan for the classes of edits.back() (a Classify edit) in the files `inputs` stand for.
/// Throws InputError naming the file or the sizes, before any point is read, when they cannot
/// be found here: a URL (read-only, and its points are not the disk's), or more memory than
/// `memoryBytes` (0: half the machine's) would hold beside the `heldBytes` that classes found
/// before hold.
ClassesAheadPlan planClassesAhead(const std::vector<std::string>& inputs,
                                  std::span<const PointEdit> edits, uint64_t memoryBytes = 0,
                                  uint64_t heldBytes = 0);

/// The classes edits.back() (a Classify edit) finds in each of the plan's files with the edits
/// before it applied (findEditClasses; the plan's dataset, if any, as a save of the edit uses
/// it): several files at once, as many as the cores and the plan's budget beside the classes
/// kept allow, each with its share of the cores. `filesDone` (may be empty; called from those
/// threads) hears the count of files done after each. `cancel` (may be null) set stops it with
/// ConversionCancelled. Throws as evaluateEdits (the first failure).
std::shared_ptr<const FoundFileClasses> findClassesAhead(
    const ClassesAheadPlan& plan, std::span<const PointEdit> edits,
    const std::atomic<bool>* cancel = nullptr,
    const std::function<void(size_t filesDone)>& filesDone = {});

}  // namespace pcv
