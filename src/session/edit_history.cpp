#include "pcv/session/edit_history.hpp"

namespace pcv {

void EditHistory::push(PointEdit edit) {
  edits_.resize(applied_);
  edits_.push_back(std::move(edit));
  ++applied_;
  ++version_;
}

bool EditHistory::undo() {
  if (applied_ == 0) return false;
  --applied_;
  ++version_;
  return true;
}

bool EditHistory::redo() {
  if (applied_ == edits_.size()) return false;
  ++applied_;
  ++version_;
  return true;
}

void EditHistory::committed() {
  edits_.clear();
  applied_ = 0;
  ++version_;
}

uint64_t EditHistory::foundClassesBytes() const {
  uint64_t bytes = 0;
  for (const PointEdit& edit : edits_) bytes += edit.found ? edit.found->bytes() : 0;
  return bytes;
}

}  // namespace pcv
