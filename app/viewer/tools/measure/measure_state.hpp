/// @brief The Measure tool's state: whether clicks measure, the kind measured, the points picked
/// so far and the finished measurements (listed, deleted, exported by the Measure section).
#pragma once

#include <vector>

#include "viewer/tools/measure/measurement.hpp"

namespace pcv::app {

class MeasureState {
 public:
  /// While active, clicks on the scene add points.
  bool active() const { return active_; }
  void setActive(bool active);
  MeasureKind kind() const { return current_.kind; }
  /// Starts measuring `kind`; the points in progress are dropped.
  void setKind(MeasureKind kind);

  /// Adds a picked point (world coordinates); `up` says what is horizontal. A distance or height
  /// finishes by itself at its second point.
  void addPoint(const glm::dvec3& point, UpAxis up);
  /// Removes the last point in progress.
  void undoPoint();
  /// Ends the measurement in progress: kept when it has enough points, else dropped. True when
  /// kept.
  bool finish();
  void remove(size_t index);
  void clear();

  /// The measurement in progress (no points when none is).
  const Measurement& current() const { return current_; }
  const std::vector<Measurement>& finished() const { return finished_; }

 private:
  bool active_ = false;
  Measurement current_;
  std::vector<Measurement> finished_;
};

}  // namespace pcv::app
