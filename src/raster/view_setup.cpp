#include "pcv/raster/view_setup.hpp"

#include <algorithm>

#include <glm/gtc/type_ptr.hpp>

namespace pcv {

ViewTransform makeViewTransform(const Camera& camera, int width, int height,
                                const glm::dvec3& origin) {
  ViewTransform view{};
  const glm::mat4 matrix = camera.viewProjection(origin, float(width) / float(height));
  std::copy_n(glm::value_ptr(matrix), 16, view.viewProjection);
  view.width = width;
  view.height = height;
  view.nearPlane = std::clamp(camera.nearPlane, kMinViewDistance, kMaxViewDistance);
  view.farPlane = std::clamp(camera.farPlane, kMinViewDistance, kMaxViewDistance);
  view.origin[0] = origin.x;
  view.origin[1] = origin.y;
  view.origin[2] = origin.z;
  if (camera.orthographic()) {
    // The view looks down -z of its frame: depth is minus the view matrix's third row.
    const glm::dmat4 frame = camera.viewFrom(origin);
    view.orthographic = 1;
    for (int column = 0; column < 4; ++column) view.depthRow[column] = float(-frame[column][2]);
  }
  return view;
}

}  // namespace pcv
