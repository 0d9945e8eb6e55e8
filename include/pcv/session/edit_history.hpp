/// @brief The edits a viewer session made, in order, with unlimited undo and redo: what is
/// shown and what a save writes are the edits applied so far (applied()); an undone edit stays
/// until a new one replaces it. A save in place makes the files hold the edits: the history
/// starts again from them (committed()), as an editor's undo stack ends at a save.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "pcv/session/point_edits.hpp"

namespace pcv {

class EditHistory {
 public:
  /// Applies `edit` after the ones applied: the edits undone before are dropped (no redo).
  void push(PointEdit edit);
  /// Undoes the last edit applied; false when there is none.
  bool undo();
  /// Applies again the edit undone last; false when there is none.
  bool redo();
  bool canUndo() const { return applied_ > 0; }
  bool canRedo() const { return applied_ < edits_.size(); }

  /// The edits in effect, oldest first.
  std::span<const PointEdit> applied() const { return {edits_.data(), applied_}; }
  /// Edits undone that redo() applies again.
  size_t undone() const { return edits_.size() - applied_; }
  /// Changes whenever applied() does (push, undo, redo): what was drawn from an older value is
  /// stale.
  uint64_t version() const { return version_; }

  /// The files now hold the edits applied (a save in place): the history is empty again.
  void committed();
  /// Whether edits are applied that the files do not hold.
  bool unsaved() const { return applied_ > 0; }
  /// Host memory the Classify edits' classes found ahead hold, undone edits' included.
  uint64_t foundClassesBytes() const;

 private:
  std::vector<PointEdit> edits_;
  size_t applied_ = 0;
  uint64_t version_ = 0;
};

}  // namespace pcv
