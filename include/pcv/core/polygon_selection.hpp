/// @brief A polygon drawn on the screen as a selection (Potree's polygon clip): the points whose
/// projection, in the view the polygon was drawn in, falls inside (or outside) it. The view is
/// kept with the polygon, so the selection stays on the same points when the camera moves, and
/// export tests points in world (double) coordinates against it.
///
/// Not there yet: the renderer does not draw with it. The plan is a ClipSettings::polygon that
/// makeClipFrame turns into the polygon view's clip x, y, w rows per batch (affine in the step
/// counts, like BatchProjection) and a coverage mask of the polygon in that view's NDC (say
/// 1024 x 1024 bits in device memory), tested per point in the clip raster and splat kernels and
/// the CPU loops alike (shared/clip_region.hpp), with batches classified by their corners' NDC
/// rectangle against the mask's. The viewer tool then draws the polygon with clicks.
#pragma once

#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "pcv/core/bounds.hpp"
#include "pcv/core/camera.hpp"

namespace pcv {

class PolygonSelection {
 public:
  /// A polygon of `windowVertices` (window pixels, y down, at least three) drawn over a
  /// windowWidth x windowHeight view of `camera`. `keepInside` false selects what is outside.
  /// Throws InputError for fewer than three vertices or a view of no size.
  PolygonSelection(const Camera& camera, double windowWidth, double windowHeight,
                   std::vector<glm::dvec2> windowVertices, bool keepInside = true);

  /// Whether the world position is selected: in front of the view's near plane and inside the
  /// polygon (even-odd rule; edges count as inside), or the opposite with keepInside false.
  bool selects(const glm::dvec3& world) const;
  /// Whether some point of the box may be selected (conservative: the box's projected corners'
  /// rectangle against the polygon's), for skipping nodes and tiles when exporting.
  bool mayMeet(const Box3d& box) const;

  const std::vector<glm::dvec2>& ndcVertices() const { return ndc_; }
  bool keepInside() const { return keepInside_; }

 private:
  /// The point's normalized device coordinates in the polygon's view, or false behind the eye.
  bool toNdc(const glm::dvec3& world, glm::dvec2& ndc) const;
  bool insidePolygon(const glm::dvec2& ndc) const;

  Camera camera_;
  glm::dmat4 viewProjection_;  ///< relative to the camera's eye
  std::vector<glm::dvec2> ndc_;
  glm::dvec2 ndcMin_, ndcMax_;
  bool keepInside_;
};

}  // namespace pcv
