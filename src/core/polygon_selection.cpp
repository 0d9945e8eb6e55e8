#include "pcv/core/polygon_selection.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "pcv/core/error.hpp"

namespace pcv {

PolygonSelection::PolygonSelection(const Camera& camera, double windowWidth, double windowHeight,
                                   std::vector<glm::dvec2> windowVertices, bool keepInside)
    : keepInside_(keepInside) {
  if (!(windowWidth >= 1.0 && windowHeight >= 1.0)) {
    throw InputError("a selection polygon needs a view of at least one pixel");
  }
  view_ = SelectionView::of(camera, windowWidth, windowHeight);
  std::vector<glm::dvec2> ndc;
  for (const glm::dvec2& w : windowVertices) {
    ndc.emplace_back(2.0 * w.x / windowWidth - 1.0, 1.0 - 2.0 * w.y / windowHeight);
  }
  setVertices(std::move(ndc));
}

PolygonSelection PolygonSelection::plan(std::vector<glm::dvec2> worldVertices, bool keepInside) {
  PolygonSelection polygon;
  polygon.keepInside_ = keepInside;
  polygon.view_.minimumW = -std::numeric_limits<double>::infinity();
  // Vertices relative to the middle of their box: georeferenced x, y keep their precision in
  // the renderer's floats.
  glm::dvec2 low(HUGE_VAL), high(-HUGE_VAL);
  for (const glm::dvec2& v : worldVertices) {
    low = glm::min(low, v);
    high = glm::max(high, v);
  }
  const glm::dvec2 middle = worldVertices.empty() ? glm::dvec2(0.0) : 0.5 * (low + high);
  polygon.view_.anchor = glm::dvec3(std::isfinite(middle.x) ? middle.x : 0.0,
                                    std::isfinite(middle.y) ? middle.y : 0.0, 0.0);
  glm::dmat4 m(0.0);  // x, y as they are; z dropped; w = 1
  m[0][0] = m[1][1] = m[3][3] = 1.0;
  polygon.view_.viewProjection = m;
  std::vector<glm::dvec2> ndc;
  for (const glm::dvec2& v : worldVertices) ndc.push_back(v - glm::dvec2(polygon.view_.anchor));
  polygon.setVertices(std::move(ndc));
  polygon.plan_ = std::move(worldVertices);
  return polygon;
}

PolygonSelection PolygonSelection::inView(const SelectionView& view,
                                          std::vector<glm::dvec2> ndcVertices, bool keepInside) {
  view.validate("a selection polygon");
  PolygonSelection polygon;
  polygon.keepInside_ = keepInside;
  polygon.view_ = view;
  polygon.setVertices(std::move(ndcVertices));
  return polygon;
}

void PolygonSelection::setVertices(std::vector<glm::dvec2> ndc) {
  if (ndc.size() < 3) {
    throw InputError("a selection polygon needs at least three points, got " +
                     std::to_string(ndc.size()));
  }
  if (ndc.size() > kMaxVertices) {
    throw InputError("a selection polygon has at most " + std::to_string(kMaxVertices) +
                     " points, got " + std::to_string(ndc.size()));
  }
  ndcMin_ = glm::dvec2(HUGE_VAL);
  ndcMax_ = glm::dvec2(-HUGE_VAL);
  for (const glm::dvec2& v : ndc) {
    if (!std::isfinite(v.x) || !std::isfinite(v.y)) {
      throw InputError("a selection polygon's points must be finite numbers");
    }
    ndcMin_ = glm::min(ndcMin_, v);
    ndcMax_ = glm::max(ndcMax_, v);
  }
  ndc_ = std::move(ndc);
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
  const bool inside = view_.toNdc(world, ndc) && insidePolygon(ndc);
  return inside == keepInside_;
}

bool PolygonSelection::mayMeet(const Box3d& box) const {
  if (box.empty()) return false;
  if (!keepInside_) return true;  // the outside reaches everywhere
  glm::dvec2 low, high;
  if (!view_.ndcRectangle(box, low, high)) return true;  // crosses the eye's plane: keep it
  if (high.x < ndcMin_.x || low.x > ndcMax_.x || high.y < ndcMin_.y || low.y > ndcMax_.y) {
    return false;
  }
  // The rectangle meets the polygon when a corner of either lies in the other or their edges
  // cross; the bounding rectangles alone keep every node under a concave polygon's notches.
  for (const glm::dvec2& v : ndc_) {
    if (v.x >= low.x && v.x <= high.x && v.y >= low.y && v.y <= high.y) return true;
  }
  const glm::dvec2 corners[4] = {low, {high.x, low.y}, high, {low.x, high.y}};
  for (const glm::dvec2& c : corners) {
    if (insidePolygon(c)) return true;
  }
  auto side = [](glm::dvec2 a, glm::dvec2 b, glm::dvec2 p) {
    return (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x);
  };
  for (size_t i = 0, j = ndc_.size() - 1; i < ndc_.size(); j = i++) {
    for (int k = 0; k < 4; ++k) {
      const glm::dvec2 c = corners[k], d = corners[(k + 1) % 4];
      if (side(ndc_[j], ndc_[i], c) * side(ndc_[j], ndc_[i], d) <= 0.0 &&
          side(c, d, ndc_[j]) * side(c, d, ndc_[i]) <= 0.0) {
        return true;
      }
    }
  }
  return false;
}

std::vector<glm::dvec2> parsePolygonVertices(const std::string& text, const std::string& what) {
  const std::string expected =
      "': expected x0,y0,x1,y1,x2,y2[,...]: at least three x,y pairs of world coordinates";
  std::vector<double> numbers;
  const char* cursor = text.c_str();
  while (true) {
    char* end = nullptr;
    const double value = std::strtod(cursor, &end);
    if (end == cursor || !(*end == ',' || *end == '\0') || !std::isfinite(value)) {
      throw InputError("bad " + what + " '" + text + expected + " (not a finite number at '" +
                       std::string(cursor).substr(0, 16) + "')");
    }
    numbers.push_back(value);
    if (*end == '\0') break;
    cursor = end + 1;
  }
  if (numbers.size() % 2 != 0) {
    throw InputError("bad " + what + " '" + text + expected + " (an odd count of numbers, " +
                     std::to_string(numbers.size()) + ")");
  }
  if (numbers.size() < 6 || numbers.size() > 2 * PolygonSelection::kMaxVertices) {
    throw InputError("bad " + what + " '" + text + expected + " (" +
                     std::to_string(numbers.size() / 2) + " pairs; at most " +
                     std::to_string(PolygonSelection::kMaxVertices) + ")");
  }
  std::vector<glm::dvec2> vertices;
  for (size_t i = 0; i < numbers.size(); i += 2) vertices.emplace_back(numbers[i], numbers[i + 1]);
  return vertices;
}

}  // namespace pcv
