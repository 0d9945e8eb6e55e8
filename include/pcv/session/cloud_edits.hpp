/// @brief Edits shown before they are saved: the classes and withheld flags of decoded points
/// (files read whole, streamed nodes) changed as a list of edits says, in order, each selection
/// tested as the save tests it (the clip region and brush on the points' world positions, the
/// filters on their attributes), and the withheld points left out of what is drawn.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "pcv/core/point_cloud.hpp"
#include "pcv/session/point_edits.hpp"

namespace pcv {

/// The attributes edits read and write of decoded points: the class and the withheld flag, and
/// what their filters read.
std::vector<std::string> attributesForEdits(std::span<const PointEdit> edits);

/// Gives `cloud` the attributes edits write, "classification" and "withheld", filled with 0
/// where it lacks them.
void ensureEditAttributes(PointCloud& cloud);

/// Applies `edits` in order to the "classification" and "withheld" attributes of `cloud` (made,
/// filled with 0, where the cloud lacks them: a file that declares none); a Classify edit
/// classifies the points its selection holds together, on their world positions. Returns, per
/// edit, the points its selection held. Throws InputError when an edit's filter reads an attribute
/// the cloud lacks.
std::vector<uint64_t> applyEditsToCloud(PointCloud& cloud, std::span<const PointEdit> edits);

/// applyEditsToCloud for one edit; returns the indices of the points its selection held,
/// ascending.
std::vector<uint64_t> applyEditToCloud(PointCloud& cloud, const PointEdit& edit);

/// The indices of the points of `cloud` that `selection` holds, ascending. Throws InputError
/// when its filter reads an attribute the cloud lacks.
std::vector<uint64_t> selectedIndices(const PointCloud& cloud, const PointSelection& selection);

/// The colour selected points are drawn in while a selection is shown (before an action).
inline constexpr uint32_t kSelectionHighlightRgba = packRgba(255, 214, 0);

/// Which points are drawn: false for those whose "withheld" attribute is set (deleted; values
/// above 0: a file without the flag merged in gives NaN, drawn). Empty when every point is (no
/// withheld attribute, or none set).
std::vector<bool> shownPoints(const PointCloud& cloud);

/// Removes the points `shownPoints` leaves out, with their attribute values; returns how many.
uint64_t dropWithheldPoints(PointCloud& cloud);

}  // namespace pcv
