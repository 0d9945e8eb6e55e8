/// @brief A polygon drawn on the screen as a selection (Potree's polygon clip): the points whose
/// projection, in the view the polygon was drawn in, falls inside (or outside) it. The view is
/// kept with the polygon, so the selection stays on the same points when the camera moves, and
/// export tests points in world (double) coordinates against it.
///
/// The renderer draws with it as part of ClipSettings (clip_settings.hpp): makeClipFrame turns
/// the view into rows of clip x, y, w per batch (affine in the step counts, like
/// BatchProjection) and the polygon into edges, tested per point in the same HOST_DEVICE code
/// on the CPU and CUDA backends (src/raster/shared/clip_region.hpp), with whole batches kept or
/// skipped from their corners' rectangle. Export and `pcv convert --clip-polygon` test selects()
/// per record and read only what mayMeet() the polygon. The viewer's Polygon tool draws it with
/// clicks; `--clip-polygon x0,y0,x1,y1,...` gives a plan polygon (plan()).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "pcv/core/bounds.hpp"
#include "pcv/core/camera.hpp"
#include "pcv/core/selection_view.hpp"

namespace pcv {

class PolygonSelection {
 public:
  /// Vertices beyond this many are refused: the renderer keeps every edge in its kernel
  /// parameters (2 KB in all), read by every point it tests.
  static constexpr size_t kMaxVertices = 128;

  /// A polygon of `windowVertices` (window pixels, y down, at least three) drawn over a
  /// windowWidth x windowHeight view of `camera`. `keepInside` false selects what is outside.
  /// A perspective view selects a cone in front of its near plane; an orthographic one a prism
  /// through the whole scene, both ways along its rays. Throws InputError for fewer than three
  /// vertices, more than kMaxVertices, non-finite ones or a view of no size.
  PolygonSelection(const Camera& camera, double windowWidth, double windowHeight,
                   std::vector<glm::dvec2> windowVertices, bool keepInside = true);

  /// A plan polygon: world x, y vertices, selecting the prism over it, infinite in z (a
  /// polygon drawn in an orthographic view from above; PDAL's filters.crop polygon). Throws
  /// InputError as the constructor does.
  static PolygonSelection plan(std::vector<glm::dvec2> worldVertices, bool keepInside = true);
  /// A polygon of `ndcVertices` in `view`'s plane (an edit log's polygon drawn in a view).
  /// Throws InputError as the constructor does, and for a view of numbers that are not finite.
  static PolygonSelection inView(const SelectionView& view, std::vector<glm::dvec2> ndcVertices,
                                 bool keepInside = true);

  /// Whether the world position is selected: in front of a perspective view's near plane and
  /// inside the polygon (even-odd rule; edges count as inside), or the opposite with keepInside
  /// false.
  bool selects(const glm::dvec3& world) const;
  /// Whether some point of the box may be selected (conservative: the box's projected corners'
  /// rectangle against the polygon), for skipping nodes and tiles when exporting.
  bool mayMeet(const Box3d& box) const;

  /// The polygon in its view's plane: normalized device coordinates, or for a plan polygon
  /// world x, y minus anchor().
  const std::vector<glm::dvec2>& ndcVertices() const { return ndc_; }
  bool keepInside() const { return keepInside_; }
  void setKeepInside(bool keepInside) { keepInside_ = keepInside; }
  /// The world x, y vertices of a plan polygon; empty for one drawn in a view.
  const std::vector<glm::dvec2>& planVertices() const { return plan_; }

  /// The view: clip = viewProjection() * (world - anchor(), 1) gives the plane's x / w and
  /// y / w; a position is in front when clip w > minimumW() (-infinity: every position).
  const glm::dvec3& anchor() const { return view_.anchor; }
  const glm::dmat4& viewProjection() const { return view_.viewProjection; }
  double minimumW() const { return view_.minimumW; }
  const SelectionView& view() const { return view_; }

 private:
  PolygonSelection() = default;
  void setVertices(std::vector<glm::dvec2> ndc);
  bool insidePolygon(const glm::dvec2& ndc) const;

  SelectionView view_;
  std::vector<glm::dvec2> ndc_;
  std::vector<glm::dvec2> plan_;
  glm::dvec2 ndcMin_{0.0}, ndcMax_{0.0};
  bool keepInside_ = true;
};

/// "x0,y0,x1,y1,x2,y2[,...]": a plan polygon's world x, y vertices (at least three pairs, at
/// most PolygonSelection::kMaxVertices). Throws InputError naming `what` and the text.
std::vector<glm::dvec2> parsePolygonVertices(const std::string& text, const std::string& what);

}  // namespace pcv
