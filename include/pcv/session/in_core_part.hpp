/// @brief A scene's files read whole: merged into one coloured cloud (ColouredCloud), with the
/// files' names and world bounds, as `pcv render` builds it at once and the viewer file by file
/// as they finish.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "pcv/core/bounds.hpp"
#include "pcv/core/point_cloud.hpp"
#include "pcv/raster/renderer.hpp"
#include "pcv/session/colored_cloud.hpp"

namespace pcv {

class InCorePart {
 public:
  /// `renderer` must outlive this; the set shown is removed when this goes.
  explicit InCorePart(Renderer& renderer) : colored_(renderer) {}

  /// Merges `cloud`, read from `path` (empty for points given in memory), with the world bounds
  /// of its points; with `replace`, or when nothing is held, it replaces what is held. Nothing
  /// is shown until coloured().show().
  void add(PointCloud&& cloud, const std::string& path, const Box3d& worldBounds, bool replace);
  /// Drops the points, their set, the files and the bounds.
  void clear();
  /// Whether points are held (a file of no points counts).
  bool holds() const { return holds_; }
  /// The files merged, in order.
  const std::vector<std::string>& files() const { return files_; }
  /// World bounds of the points merged.
  const Box3d& bounds() const { return bounds_; }
  /// The points merged, in their own origin.
  const PointCloud& cloud() const { return colored_.cloud(); }
  /// Their colouring and set.
  ColoredCloud& colored() { return colored_; }
  const ColoredCloud& colored() const { return colored_; }
  /// The index in cloud() of the point `picked` found, when it is one of this part's (its set
  /// shown with keepSourceOrder).
  std::optional<uint64_t> pickedIndex(const PickedPoint& picked) const;

 private:
  ColoredCloud colored_;
  bool holds_ = false;
  std::vector<std::string> files_;
  Box3d bounds_;
};

}  // namespace pcv
