/// @brief Files read whole, merged into one cloud with one origin, and shown as one renderer set
/// coloured from that host copy (so a colour mode switches without reading again): the in-core
/// part of a scene, built at once (`pcv render`) or file by file as they finish (the viewer).
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "pcv/core/uninitialized_vector.hpp"
#include "pcv/session/cloud_edits.hpp"
#include "pcv/session/point_edits.hpp"
#include "pcv/session/selection_export.hpp"

#include <optional>
#include <span>
#include <string>

#include <glm/glm.hpp>

#include "pcv/core/point_cloud.hpp"
#include "pcv/core/point_coloring.hpp"
#include "pcv/raster/renderer.hpp"

namespace pcv {

class ColoredCloud {
 public:
  /// `renderer` must outlive this; the set shown is removed when this is destroyed.
  explicit ColoredCloud(Renderer& renderer) : renderer_(renderer) {}
  ~ColoredCloud() { hide(); }
  ColoredCloud(const ColoredCloud&) = delete;
  ColoredCloud& operator=(const ColoredCloud&) = delete;

  /// Replaces the points with `cloud` (`replace`; the first cloud must), or merges it into
  /// them, in their origin.
  /// Nothing is shown until show().
  void merge(PointCloud&& cloud, bool replace);
  /// Drops the points and the set.
  void clear();

  /// Colours the points as `coloring` asks and lays them out as the one set shown (the previous
  /// one removed first, so the renderer can reuse its memory); returns the colouring used. An
  /// attribute the points lack: with `fallbackError`, coloured as the default (the file's
  /// colours, or elevation) and the reason written there; without, the InputError is thrown.
  /// Throws what the renderer throws (out of memory) with nothing shown. With `shownOrigin`, the
  /// set's points are offsets from it instead of from the cloud's own origin (a frame has one
  /// view origin: a streamed source's, say); the host copy keeps its own origin and precision.
  Coloring show(const ColoringOptions& coloring, const PointSetOptions& options = {},
                std::string* fallbackError = nullptr,
                const std::optional<glm::dvec3>& shownOrigin = std::nullopt);
  /// Whether the set shown carries what point filters read (Renderer::setFilterData), with the
  /// values of `rangeAttribute` (may be empty) for range filters; applied to the set shown now
  /// (shown again when it keeps no source order) and to every later show().
  void setFilterData(bool keep, const std::string& rangeAttribute = {});
  /// Removes the set; the points stay.
  void hide();

  /// Applies `edits` to the points' classes and withheld flags (applyEditsToCloud), each time
  /// from the values the points were read with (kept aside from the first edit on, and for
  /// points merged later), for the next show(); an empty list gives the values read back.
  /// Withheld points are left out of every set shown. Returns per edit the points it selected.
  /// Throws InputError (a filter over an attribute the points lack), with the values read back.
  std::vector<uint64_t> setEdits(std::vector<PointEdit> edits);
  /// The edits so far and `edit` after them: the points as they are now get `edit` alone (no
  /// pass restores the values read and applies the others again). Returns the points it
  /// selected (lastEditPoints()). Throws InputError as setEdits does, with the points as they
  /// were.
  uint64_t pushEdit(PointEdit edit);
  /// The points the last pushEdit selected, ascending, until the next edit or undo.
  std::span<const uint64_t> lastEditPoints() const;
  /// Takes the last edit back at the cost of its points alone, from what pushEdit kept of them
  /// (the edits pushed last, up to kUndoBudgetBytes of them): true, with `changed` (may be null)
  /// receiving the points it had selected, ascending; false, with nothing changed, where nothing
  /// was kept for it (an edit given by setEdits, or too large): setEdits then.
  bool undoLastEdit(std::vector<uint64_t>* changed = nullptr);
  /// What pushEdit keeps for undoLastEdit at most.
  static constexpr uint64_t kUndoBudgetBytes = uint64_t(2) << 30;
  /// Gives the set shown the colours and filter data of the points as they are now (after
  /// setEdits), without laying it out again: false, with nothing changed, when it cannot (no set
  /// shown, one shown without its source order, or other points withheld than when it was
  /// laid out: show() again then).
  bool refreshInPlace();
  /// Gives the points `indices` (the cloud's, ascending) of the set shown the colours and
  /// classes the cloud has for them now (the highlight too), the other points untouched: a
  /// class edit or a highlight shown at the cost of the points it changes. The same points must
  /// be withheld as when the set was laid out. False, with nothing changed, where it cannot (no
  /// set shown, one shown without its source order, a colouring or range filter over the
  /// classes themselves, a backend that cannot): refreshInPlace() or show() then.
  bool showChangedPoints(std::span<const uint64_t> indices);
  /// Draws the points `selection` holds in the highlight colour (kSelectionHighlightRgba) from
  /// the next show(), refreshInPlace() or showChangedPoints() on; empty: none. Returns the
  /// points whose highlight this changes (held before or now), ascending.
  std::vector<uint64_t> setHighlight(std::optional<PointSelection> selection);
  /// The selection drawn highlighted (setHighlight), if any.
  const std::optional<PointSelection>& highlight() const { return highlight_; }
  /// The files now hold the edits (saved in place): the values shown become those read, and
  /// there are no edits.
  void commitEdits();
  /// The index in cloud() of the point of the set shown given to it at `sourceIndex` (withheld
  /// points are not given), or empty past the set's points.
  std::optional<uint64_t> cloudIndex(uint64_t sourceIndex) const;

  const PointCloud& cloud() const { return cloud_; }
  /// The set shown; empty while hidden.
  const std::optional<PointSetId>& set() const { return set_; }

 private:
  Renderer& renderer_;
  PointCloud cloud_;
  /// Gives the set shown what filters read of the points, when they carry any of it.
  void applyFilterData();

  /// The cloud's indices of the points a set shows now, all but the withheld; empty when none
  /// is withheld.
  std::optional<std::vector<uint64_t>> shownIndices() const;
  /// The filters' attributes of the points shown, when some are withheld.
  void keepShownAttributes();
  /// Restores the values read, applies edits_ again and notes which points are shown.
  void reapplyEdits(std::vector<uint64_t>* selected = nullptr);

  std::optional<PointSetId> set_;
  std::vector<PointEdit> edits_;
  /// A pushed edit's points and what they held before it.
  struct PushedEdit {
    std::vector<uint64_t> indices;
    EditUndo undo;
    uint64_t bytes() const { return indices.size() * (sizeof(uint64_t) + sizeof(float)); }
  };
  /// The last pushed edits, oldest first, the last for the last of edits_; cleared whenever
  /// edits_ is replaced or points come.
  std::deque<PushedEdit> undos_;
  std::optional<PointSelection> highlight_;
  std::vector<uint64_t> highlighted_;  ///< the points highlight_ holds, ascending
  CloudChunks chunks_;  ///< the cloud's runs of points and their bounds, extended as points come
  bool keepsReadValues_ = false;  ///< an edit was applied since the points were read or saved
  /// The class and withheld values as read (0 where absent) of the points edits changed.
  ReadValues readValues_;
  /// The cloud's indices of the points the set shown holds, in order, when some are withheld;
  /// empty: every point.
  std::optional<std::vector<uint64_t>> shownIndex_;
  /// The filters' attributes of the shown points only (with shownIndex_).
  std::vector<ScalarAttribute> shownAttributes_;
  bool filterData_ = false;
  bool setFilterHasClasses_ = false;  ///< the set shown was given classes in its filter data
  std::string rangeAttribute_;
  std::optional<ColoringOptions> shownColoring_;  ///< what show() was last asked
  std::optional<Coloring> shownUsed_;             ///< what that colouring settled on
  std::optional<glm::dvec3> shownOrigin_;
  bool shownWithOrder_ = false;
};

}  // namespace pcv
