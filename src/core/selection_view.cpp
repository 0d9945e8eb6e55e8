#include "pcv/core/selection_view.hpp"

#include <cmath>
#include <limits>
#include <string>

#include "pcv/core/error.hpp"

namespace pcv {

SelectionView SelectionView::of(const Camera& camera, double width, double height) {
  SelectionView view;
  view.anchor = camera.eye;
  view.viewProjection = camera.viewProjectionFromEye(width / height);
  // Perspective clip w is the depth along the view: in front of the near plane. An
  // orthographic view's w is 1: its rays select both ways.
  view.minimumW =
      camera.orthographic() ? -std::numeric_limits<double>::infinity() : double(camera.nearPlane);
  return view;
}

bool SelectionView::toNdc(const glm::dvec3& world, glm::dvec2& ndc) const {
  const glm::dvec4 clip = viewProjection * glm::dvec4(world - anchor, 1.0);
  if (!(clip.w > minimumW)) return false;
  ndc = glm::dvec2(clip.x, clip.y) / clip.w;  // clip w is 1 in an orthographic view
  return true;
}

bool SelectionView::ndcRectangle(const Box3d& box, glm::dvec2& low, glm::dvec2& high) const {
  low = glm::dvec2(HUGE_VAL);
  high = glm::dvec2(-HUGE_VAL);
  for (int c = 0; c < 8; ++c) {
    const glm::dvec3 corner((c & 1) ? box.max.x : box.min.x, (c & 2) ? box.max.y : box.min.y,
                            (c & 4) ? box.max.z : box.min.z);
    glm::dvec2 ndc;
    if (!toNdc(corner, ndc)) return false;
    low = glm::min(low, ndc);
    high = glm::max(high, ndc);
  }
  return true;
}

void SelectionView::validate(const char* what) const {
  bool finite = std::isfinite(anchor.x) && std::isfinite(anchor.y) && std::isfinite(anchor.z) &&
                !std::isnan(minimumW) && minimumW != HUGE_VAL;
  for (int c = 0; c < 4; ++c) {
    for (int r = 0; r < 4; ++r) finite = finite && std::isfinite(viewProjection[c][r]);
  }
  if (!finite) {
    throw InputError(std::string(what) +
                     ": the view's numbers must be finite (minimum w may be "
                     "-infinity)");
  }
}

}  // namespace pcv
