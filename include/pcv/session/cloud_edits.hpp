/// @brief Edits shown before they are saved: the classes and withheld flags of decoded points
/// (files read whole, streamed nodes) changed as a list of edits says, in order, each selection
/// tested as the save tests it (the clip region and brush on the points' world positions, the
/// filters on their attributes), and the withheld points left out of what is drawn.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "pcv/core/bounds.hpp"
#include "pcv/core/point_cloud.hpp"
#include "pcv/session/point_edits.hpp"
#include "pcv/session/read_values_journal.hpp"

namespace pcv {

/// The attributes edits read and write of decoded points: the class and the withheld flag, and
/// what their filters read.
std::vector<std::string> attributesForEdits(std::span<const PointEdit> edits);

/// Gives `cloud` the attributes `edits` write, filled with 0 where it lacks them:
/// "classification", and "withheld" where an edit deletes or restores (a class change of a
/// billion points does not wait for a flag array it leaves at 0).
void ensureEditAttributes(PointCloud& cloud, std::span<const PointEdit> edits);

/// Points of a cloud in runs of kCloudChunkPoints, in the cloud's order, and each run's bounds:
/// a selection tests only the points of the runs its regions may meet. Files keep their points
/// near each other in order (scan lines, tiles, octree nodes), so a region holding 1 % of the
/// points meets few runs.
inline constexpr uint64_t kCloudChunkPoints = uint64_t(1) << 14;
struct CloudChunks {
  std::vector<Box3d> bounds;  ///< world coordinates, one per run
};

/// The runs of `cloud` and their bounds (world positions from the float offsets, as selections
/// test them). Valid while the cloud's points stay (edits change no position).
CloudChunks cloudChunks(const PointCloud& cloud);
/// `chunks`, the runs of the cloud's first points, extended to the points appended since.
void extendCloudChunks(const PointCloud& cloud, CloudChunks& chunks);

/// Applies `edits` in order to the "classification" and "withheld" attributes of `cloud` (made,
/// filled with 0, where the cloud lacks them and an edit writes them: ensureEditAttributes); a
/// Classify edit classifies the points its selection holds together, on their world positions.
/// Returns, per edit, the points its selection held. `chunks` (may be null: every point tested) are
/// the cloud's (cloudChunks); `journal` (may be null) keeps the values of every point an edit
/// changes from before it changes them. Throws InputError when an edit's filter reads an
/// attribute the cloud lacks.
std::vector<uint64_t> applyEditsToCloud(PointCloud& cloud, std::span<const PointEdit> edits,
                                        const CloudChunks* chunks = nullptr,
                                        ReadValues* journal = nullptr);

/// What one edit changed: the values its points had before it, of the one attribute it
/// writes, enough to undo it at the cost of its points alone (with the points' indices, which
/// applyEditToCloud returns).
struct EditUndo {
  std::vector<float> before;  ///< per point of the edit's selection, in its order
  bool withheld = false;      ///< the withheld flags (a delete or restore), else the classes
};

/// applyEditsToCloud for one edit; returns the indices of the points its selection held,
/// ascending. `undo` (may be null) receives what undoEdit needs to take the edit back.
std::vector<uint64_t> applyEditToCloud(PointCloud& cloud, const PointEdit& edit,
                                       const CloudChunks* chunks = nullptr,
                                       ReadValues* journal = nullptr, EditUndo* undo = nullptr);

/// Gives the points `indices` (applyEditToCloud's) back the values `undo` kept from before its
/// edit; the edits after it must have been undone first.
void undoEdit(PointCloud& cloud, std::span<const uint64_t> indices, const EditUndo& undo);

/// The indices of the points of `cloud` that `selection` holds, ascending (its regions on the
/// points' world positions, its filters on their attributes as they are now). With `chunks`,
/// the runs whose bounds the selection's regions cannot meet are not tested. Throws InputError
/// when its filter reads an attribute the cloud lacks.
std::vector<uint64_t> selectedIndices(const PointCloud& cloud, const PointSelection& selection,
                                      const CloudChunks* chunks = nullptr);

/// The colour selected points are drawn in while a selection is shown (before an action).
inline constexpr uint32_t kSelectionHighlightRgba = packRgba(255, 214, 0);

/// Which points are drawn: false for those whose "withheld" attribute is set (deleted; values
/// above 0: a file without the flag merged in gives NaN, drawn). Empty when every point is (no
/// withheld attribute, or none set).
std::vector<bool> shownPoints(const PointCloud& cloud);

/// Removes the points `shownPoints` leaves out, with their attribute values; returns how many.
uint64_t dropWithheldPoints(PointCloud& cloud);

}  // namespace pcv
