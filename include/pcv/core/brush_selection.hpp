/// @brief A brush stroke painted on the screen as a selection: the points whose projection, in
/// the view the stroke was painted in, lies within the brush's radius of one of its dabs. Like
/// a polygon drawn in a view (polygon_selection.hpp) it keeps its view, so it stays on the same
/// points when the camera moves, and it selects through the depth (every point under the
/// brush, not only the nearest: with the clip region and filters it narrows to the points
/// drawn). Tested per point in double by edits and their saves; a grid of the window's cells,
/// each listing the dabs that reach it, keeps a test to a few distance checks however long the
/// stroke.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "pcv/core/bounds.hpp"
#include "pcv/core/camera.hpp"
#include "pcv/core/selection_view.hpp"

namespace pcv {

class BrushSelection {
 public:
  /// Dabs beyond this many are refused: a stroke is a few hundred, an edit log stays small.
  static constexpr size_t kMaxDabs = 65536;
  /// The brush's radius in window pixels: 0.5 to this.
  static constexpr double kMaxRadiusPx = 4096.0;

  /// A stroke of `dabs` (window pixels, y down; at least one) of a brush `radiusPx` wide,
  /// painted over a windowWidth x windowHeight view of `camera`. Throws InputError for no dabs,
  /// too many, non-finite ones, a radius out of range or a view of no size.
  BrushSelection(const Camera& camera, double windowWidth, double windowHeight,
                 std::vector<glm::dvec2> dabs, double radiusPx);
  /// The same in a view kept before (an edit log's stroke). Throws InputError as above, and for
  /// a view of numbers that are not finite.
  BrushSelection(const SelectionView& view, double windowWidth, double windowHeight,
                 std::vector<glm::dvec2> dabs, double radiusPx);

  /// Whether the world position is under the stroke (in front of a perspective view's near
  /// plane, within the radius of a dab; the rim counts).
  bool selects(const glm::dvec3& world) const;
  /// Whether some point of the box may be (conservative: its projected corners' rectangle
  /// against the dabs' circles), for reading only the nodes and tiles it may meet.
  bool mayMeet(const Box3d& box) const;

  const SelectionView& view() const { return view_; }
  double windowWidth() const { return width_; }
  double windowHeight() const { return height_; }
  const std::vector<glm::dvec2>& dabs() const { return dabs_; }
  double radiusPx() const { return radius_; }

 private:
  void build();
  /// The window position of a world position, or false behind a perspective eye.
  bool toWindow(const glm::dvec3& world, glm::dvec2& px) const;

  SelectionView view_;
  double width_ = 0.0, height_ = 0.0;
  std::vector<glm::dvec2> dabs_;
  double radius_ = 1.0;
  // The grid: cells of cell_ pixels from corner_, columns_ x rows_; cell c's dabs are
  // cellDabs_[cellFirst_[c], cellFirst_[c + 1]).
  glm::dvec2 corner_{0.0};
  double cell_ = 1.0;
  int64_t columns_ = 0, rows_ = 0;
  std::vector<uint32_t> cellFirst_;
  std::vector<uint32_t> cellDabs_;
};

}  // namespace pcv
