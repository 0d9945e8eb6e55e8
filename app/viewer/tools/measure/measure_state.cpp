#include "viewer/tools/measure/measure_state.hpp"

namespace pcv::app {

void MeasureState::setActive(bool active) {
  active_ = active;
  if (!active) finish();
}

void MeasureState::setKind(MeasureKind kind) {
  current_ = Measurement{.kind = kind};
}

void MeasureState::addPoint(const glm::dvec3& point, UpAxis up) {
  current_.up = up;
  current_.points.push_back(point);
  const size_t complete = completePoints(current_.kind);
  if (complete > 0 && current_.points.size() >= complete) finish();
}

void MeasureState::undoPoint() {
  if (!current_.points.empty()) current_.points.pop_back();
}

bool MeasureState::finish() {
  const bool kept = current_.points.size() >= minimumPoints(current_.kind);
  if (kept) finished_.push_back(current_);
  current_.points.clear();
  return kept;
}

void MeasureState::remove(size_t index) {
  if (index < finished_.size()) finished_.erase(finished_.begin() + std::ptrdiff_t(index));
}

void MeasureState::clear() {
  finished_.clear();
  current_.points.clear();
}

}  // namespace pcv::app
