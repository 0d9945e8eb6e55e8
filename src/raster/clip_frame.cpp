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

}  // namespace

ClipFrame makeClipFrame(const ClipSettings& clip, const double origin[3]) {
  ClipFrame frame{};
  if (!clip.active()) return frame;
  frame.active = 1;
  frame.keepOutside = clip.keep == ClipKeep::Outside ? 1u : 0u;
  const glm::dvec3 offset(origin[0], origin[1], origin[2]);
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
