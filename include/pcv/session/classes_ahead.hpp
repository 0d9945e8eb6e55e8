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
#include <span>
#include <string>
#include <vector>

#include "pcv/session/point_edits.hpp"

namespace pcv {

/// What finding the classes of edits.back() (a Classify edit) in `files` holds at its peak, in
/// bytes: the classes found in every file (kept with the edit), and the largest file's run
/// (positions and the filters' working arrays; a dataset's tile with its neighbours' points
/// within the buffer), from the files' headers.
uint64_t classesAheadBytes(const std::vector<std::string>& files, std::span<const PointEdit> edits);

/// Throws InputError naming the file or the sizes, before any point is read, when the
/// classes of edits.back() (a Classify edit) cannot be found here in `files` (LAS, LAZ or COPC
/// files; folders and VPCs are expanded): a URL (read-only, and its points are not the
/// disk's), or more memory than `memoryBytes` (0: half the machine's) would hold beside the
/// `heldBytes` that classes found before hold. Returns the files.
std::vector<std::string> checkClassesAhead(const std::vector<std::string>& files,
                                           std::span<const PointEdit> edits,
                                           uint64_t memoryBytes = 0, uint64_t heldBytes = 0);

/// The classes edits.back() (a Classify edit) finds in each of `files` with the edits before it
/// applied (findEditClasses; several tiles as one dataset where classificationDataset makes
/// one, as a save does): several files at once, as many as the cores and `memoryBytes` (0: half
/// the machine's) allow beside the classes kept, each with its share of the cores. `filesDone`
/// (may be empty; called from those threads) hears the count of files done after each.
/// `cancel` (may be null) set stops it with ConversionCancelled. Throws as evaluateEdits (the
/// first failure).
std::shared_ptr<const FoundFileClasses> findClassesAhead(
    const std::vector<std::string>& files, std::span<const PointEdit> edits,
    const std::atomic<bool>* cancel = nullptr,
    const std::function<void(size_t filesDone)>& filesDone = {}, uint64_t memoryBytes = 0);

}  // namespace pcv
