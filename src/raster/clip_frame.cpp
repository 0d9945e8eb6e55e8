#include "clip_frame.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pcv {
namespace {

/// The axis a unit normal lies along, or -1.
int axisOf(const glm::dvec3& normal) {
  for (int axis = 0; axis < 3; ++axis) {
    if (normal[(axis + 1) % 3] == 0.0 && normal[(axis + 2) % 3] == 0.0) return axis;
  }
  return -1;
}

/// The polygon's view for points as offsets from `origin`, and its edges: rows in double until
/// the end, so georeferenced coordinates cost no precision.
ClipPolygon makeClipPolygon(const PolygonSelection& selection, const glm::dvec3& origin) {
  ClipPolygon polygon{};
  const std::vector<glm::dvec2>& vertices = selection.ndcVertices();
  polygon.edgeCount = uint32_t(std::min<size_t>(vertices.size(), kMaxClipPolygonEdges));
  polygon.keepOutside = selection.keepInside() ? 0u : 1u;
  polygon.minimumW = float(selection.minimumW());
  // clip = M * (p + origin - anchor): the translation folded into the constant column.
  const glm::dmat4& m = selection.viewProjection();
  const glm::dvec3 shift = origin - selection.anchor();
  for (int row = 0; row < 3; ++row) {
    const int source = row == 2 ? 3 : row;  // x, y and w
    double constant = m[3][source];
    for (int axis = 0; axis < 3; ++axis) {
      polygon.rows[row][axis] = float(m[axis][source]);
      constant += m[axis][source] * shift[axis];
    }
    polygon.rows[row][3] = float(constant);
  }
  polygon.low[0] = polygon.low[1] = std::numeric_limits<float>::infinity();
  polygon.high[0] = polygon.high[1] = -std::numeric_limits<float>::infinity();
  for (uint32_t i = 0; i < polygon.edgeCount; ++i) {
    const glm::vec2 a(vertices[i]), b(vertices[i + 1 < polygon.edgeCount ? i + 1 : 0]);
    polygon.edges[i] = PolygonEdge{a.x, a.y, b.y, a.y == b.y ? 0.0f : (b.x - a.x) / (b.y - a.y)};
    for (int axis = 0; axis < 2; ++axis) {
      polygon.low[axis] = std::min(polygon.low[axis], a[axis]);
      polygon.high[axis] = std::max(polygon.high[axis], a[axis]);
    }
  }
  return polygon;
}

}  // namespace

ClipFrame makeClipFrame(const ClipSettings& clip, const double origin[3]) {
  ClipFrame frame{};
  if (!clip.active()) return frame;
  frame.active = 1;
  const glm::dvec3 offset(origin[0], origin[1], origin[2]);
  if (clip.polygon) frame.polygon = makeClipPolygon(*clip.polygon, offset);
  if (!clip.hasRegion()) return frame;
  frame.hasRegion = 1;
  frame.keepOutside = clip.keep == ClipKeep::Outside ? 1u : 0u;
  // In double until the end: the box's corners may be georeferenced (UTM) coordinates.
  glm::dvec3 low(-std::numeric_limits<double>::infinity());
  glm::dvec3 high(std::numeric_limits<double>::infinity());
  if (clip.box) {
    low = clip.box->min - offset;
    high = clip.box->max - offset;
  }
  if (clip.slab) {
    const glm::dvec3 normal = glm::normalize(clip.slab->normal);
    const double middle = glm::dot(normal, clip.slab->centre - offset);
    const double half = 0.5 * clip.slab->thickness;
    const int axis = axisOf(normal);
    if (axis >= 0) {
      // n = +-axis: the slab is a range of that coordinate.
      const double centre = normal[axis] > 0.0 ? middle : -middle;
      low[axis] = std::max(low[axis], centre - half);
      high[axis] = std::min(high[axis], centre + half);
    } else {
      frame.hasPlane = 1;
      for (int k = 0; k < 3; ++k) frame.plane[k] = float(normal[k]);
      frame.planeMin = float(middle - half);
      frame.planeMax = float(middle + half);
    }
  }
  for (int axis = 0; axis < 3; ++axis) {
    frame.boxMin[axis] = float(low[axis]);
    frame.boxMax[axis] = float(high[axis]);
  }
  return frame;
}

}  // namespace pcv
