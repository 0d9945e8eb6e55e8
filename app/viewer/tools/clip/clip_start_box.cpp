#include "viewer/tools/clip/clip_start_box.hpp"

#include <algorithm>
#include <cmath>

namespace pcv::app {
namespace {

/// cos(1°): a view this close to an axis looks along it.
constexpr double kAlongAxisCosine = 0.9998476951563913;
/// The margin beyond the scene along the view axis, as a share of the scene's largest size.
constexpr double kViewAxisMargin = 0.01;

}  // namespace

int viewAxisOf(const Camera& camera) {
  if (!camera.orthographic()) return -1;
  const glm::dvec3 forward = glm::normalize(camera.forward());
  for (int axis = 0; axis < 3; ++axis) {
    if (std::abs(forward[axis]) >= kAlongAxisCosine) return axis;
  }
  return -1;
}

ClipBox startingClipBox(const Box3d& shown, const Camera& camera) {
  const Box3d scene = shown.empty() ? Box3d{glm::dvec3(-1.0), glm::dvec3(1.0)} : shown;
  const glm::dvec3 quarter = 0.25 * scene.size();
  ClipBox box{scene.min + quarter, scene.max - quarter};
  const int axis = viewAxisOf(camera);
  if (axis >= 0) {
    const glm::dvec3 size = scene.size();
    // Relative to the largest size and to the coordinates' magnitude: a flat scene far from the
    // origin (UTM) still gets a margin its float offsets cannot round away.
    const double margin =
        std::max({kViewAxisMargin * std::max({size.x, size.y, size.z}),
                  1e-6 * std::max(std::abs(scene.min[axis]), std::abs(scene.max[axis])), 1e-6});
    box.min[axis] = scene.min[axis] - margin;
    box.max[axis] = scene.max[axis] + margin;
  }
  return box;
}

}  // namespace pcv::app
