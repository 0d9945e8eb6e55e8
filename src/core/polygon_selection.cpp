#include "pcv/core/polygon_selection.hpp"

#include <algorithm>
#include <cmath>

#include "pcv/core/error.hpp"

namespace pcv {

PolygonSelection::PolygonSelection(const Camera& camera, double windowWidth, double windowHeight,
                                   std::vector<glm::dvec2> windowVertices, bool keepInside)
    : camera_(camera), keepInside_(keepInside) {
  if (windowVertices.size() < 3) {
    throw InputError("a selection polygon needs at least three points, got " +
                     std::to_string(windowVertices.size()));
  }
  if (!(windowWidth >= 1.0 && windowHeight >= 1.0)) {
    throw InputError("a selection polygon needs a view of at least one pixel");
  }
  viewProjection_ = camera.viewProjectionFromEye(windowWidth / windowHeight);
  ndcMin_ = glm::dvec2(HUGE_VAL);
  ndcMax_ = glm::dvec2(-HUGE_VAL);
  for (const glm::dvec2& w : windowVertices) {
    const glm::dvec2 ndc(2.0 * w.x / windowWidth - 1.0, 1.0 - 2.0 * w.y / windowHeight);
    ndc_.push_back(ndc);
    ndcMin_ = glm::min(ndcMin_, ndc);
    ndcMax_ = glm::max(ndcMax_, ndc);
  }
}

bool PolygonSelection::toNdc(const glm::dvec3& world, glm::dvec2& ndc) const {
  const glm::dvec4 clip = viewProjection_ * glm::dvec4(world - camera_.eye, 1.0);
  const double depth = glm::dot(world - camera_.eye, camera_.forward());
  if (!(depth > double(camera_.nearPlane))) return false;
  ndc = glm::dvec2(clip.x, clip.y) / clip.w;  // clip w is 1 in an orthographic view
  return true;
}

bool PolygonSelection::insidePolygon(const glm::dvec2& p) const {
  if (p.x < ndcMin_.x || p.x > ndcMax_.x || p.y < ndcMin_.y || p.y > ndcMax_.y) return false;
  bool inside = false;
  for (size_t i = 0, j = ndc_.size() - 1; i < ndc_.size(); j = i++) {
    const glm::dvec2 a = ndc_[i], b = ndc_[j];
    // On an edge: inside.
    const double cross = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x);
    if (cross == 0.0 && p.x >= std::min(a.x, b.x) && p.x <= std::max(a.x, b.x) &&
        p.y >= std::min(a.y, b.y) && p.y <= std::max(a.y, b.y)) {
      return true;
    }
    if ((a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x) {
      inside = !inside;
    }
  }
  return inside;
}

bool PolygonSelection::selects(const glm::dvec3& world) const {
  glm::dvec2 ndc;
  const bool inside = toNdc(world, ndc) && insidePolygon(ndc);
  return inside == keepInside_;
}

bool PolygonSelection::mayMeet(const Box3d& box) const {
  if (box.empty()) return false;
  if (!keepInside_) return true;  // the outside reaches everywhere
  glm::dvec2 low(HUGE_VAL), high(-HUGE_VAL);
  for (int c = 0; c < 8; ++c) {
    const glm::dvec3 corner((c & 1) ? box.max.x : box.min.x, (c & 2) ? box.max.y : box.min.y,
                            (c & 4) ? box.max.z : box.min.z);
    glm::dvec2 ndc;
    if (!toNdc(corner, ndc)) return true;  // crosses the eye's plane: keep it
    low = glm::min(low, ndc);
    high = glm::max(high, ndc);
  }
  return !(high.x < ndcMin_.x || low.x > ndcMax_.x || high.y < ndcMin_.y || low.y > ndcMax_.y);
}

}  // namespace pcv
