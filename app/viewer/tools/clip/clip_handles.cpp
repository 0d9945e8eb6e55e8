#include "viewer/tools/clip/clip_handles.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pcv::app {
namespace {

/// The axis (0..2) of a face handle and whether it is the box's maximum face.
int axisOf(ClipHandle handle) {
  return (int(handle) - int(ClipHandle::BoxMinX)) / 2;
}
bool isMaxFace(ClipHandle handle) {
  return (int(handle) - int(ClipHandle::BoxMinX)) % 2 == 1;
}

/// How far along `direction` (world, unit length) the cursor's motion goes, from `at`: the
/// motion projected on the direction's image on screen.
double alongOnScreen(const ScreenProjector& projector, const glm::dvec3& at,
                     const glm::dvec3& direction, glm::dvec2 motion) {
  // A probe short enough to stay in front of the camera, long enough to measure.
  const double probe = 50.0 * projector.unitsPerPixelAt(at);
  const auto a = projector.toWindow(at), b = projector.toWindow(at + direction * probe);
  if (!a || !b) return 0.0;
  const glm::dvec2 screen = *b - *a;  // pixels per `probe` world units
  const double squared = glm::dot(screen, screen);
  if (squared < 1e-6) return 0.0;  // the direction points at the camera: no grip on it
  return glm::dot(motion, screen) / squared * probe;
}

}  // namespace

std::vector<ClipHandlePoint> clipHandles(const ClipSettings& clip) {
  std::vector<ClipHandlePoint> handles;
  if (clip.box) {
    const glm::dvec3 centre = 0.5 * (clip.box->min + clip.box->max);
    for (int axis = 0; axis < 3; ++axis) {
      glm::dvec3 low = centre, high = centre;
      low[axis] = clip.box->min[axis];
      high[axis] = clip.box->max[axis];
      handles.push_back({ClipHandle(int(ClipHandle::BoxMinX) + 2 * axis), low});
      handles.push_back({ClipHandle(int(ClipHandle::BoxMinX) + 2 * axis + 1), high});
    }
    handles.push_back({ClipHandle::BoxCentre, centre});
  }
  if (clip.slab) handles.push_back({ClipHandle::SlabCentre, clip.slab->centre});
  return handles;
}

ClipHandle handleAt(const ClipSettings& clip, const ScreenProjector& projector, glm::dvec2 cursor,
                    double radiusPx) {
  ClipHandle best = ClipHandle::None;
  double bestDistance = radiusPx, bestDepth = std::numeric_limits<double>::infinity();
  const Camera& camera = projector.camera();
  for (const ClipHandlePoint& h : clipHandles(clip)) {
    const auto at = projector.toWindow(h.world);
    if (!at) continue;
    const double distance = glm::length(*at - cursor);
    const double depth = glm::dot(h.world - camera.eye, camera.forward());
    // The nearest on screen; handles drawn on top of each other go to the one in front.
    const bool overlaps = std::abs(distance - bestDistance) < 0.5;
    if (distance <= bestDistance && (!overlaps || depth < bestDepth)) {
      best = h.handle;
      bestDistance = distance;
      bestDepth = depth;
    }
  }
  return best;
}

void dragHandle(ClipSettings& clip, ClipHandle handle, const ScreenProjector& projector,
                glm::dvec2 from, glm::dvec2 to) {
  const glm::dvec2 motion = to - from;
  if (handle == ClipHandle::SlabCentre && clip.slab) {
    const glm::dvec3 normal = glm::normalize(clip.slab->normal);
    clip.slab->centre += normal * alongOnScreen(projector, clip.slab->centre, normal, motion);
    return;
  }
  if (!clip.box) return;
  ClipBox& box = *clip.box;
  if (handle == ClipHandle::BoxCentre) {
    // In the view plane at the centre's depth; window y grows downwards.
    const glm::dvec3 centre = 0.5 * (box.min + box.max);
    const Camera& camera = projector.camera();
    const glm::dvec3 shift =
        (camera.right() * motion.x - camera.up() * motion.y) * projector.unitsPerPixelAt(centre);
    box.min += shift;
    box.max += shift;
    return;
  }
  if (handle < ClipHandle::BoxMinX || handle > ClipHandle::BoxMaxZ) return;
  const int axis = axisOf(handle);
  glm::dvec3 direction(0.0);
  direction[axis] = 1.0;
  glm::dvec3 face = 0.5 * (box.min + box.max);
  face[axis] = isMaxFace(handle) ? box.max[axis] : box.min[axis];
  const double shift = alongOnScreen(projector, face, direction, motion);
  if (isMaxFace(handle)) {
    box.max[axis] = std::max(box.max[axis] + shift, box.min[axis]);
  } else {
    box.min[axis] = std::min(box.min[axis] + shift, box.max[axis]);
  }
}

}  // namespace pcv::app
