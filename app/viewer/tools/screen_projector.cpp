#include "viewer/tools/screen_projector.hpp"

#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

namespace pcv::app {

ScreenProjector::ScreenProjector(const Camera& camera, double windowWidth, double windowHeight)
    : camera_(camera), width_(windowWidth), height_(windowHeight) {
  const glm::dmat4 view = glm::lookAt(glm::dvec3(0.0), camera.forward(), camera.up());
  const glm::dmat4 projection =
      glm::perspective(double(camera.fovYRadians), windowWidth / std::max(windowHeight, 1.0),
                       double(camera.nearPlane), double(camera.farPlane));
  viewProjection_ = projection * view;
}

glm::dvec4 ScreenProjector::clip(const glm::dvec3& world) const {
  return viewProjection_ * glm::dvec4(world - camera_.eye, 1.0);
}

glm::dvec2 ScreenProjector::windowOf(const glm::dvec4& c) const {
  return {(c.x / c.w * 0.5 + 0.5) * width_, (0.5 - c.y / c.w * 0.5) * height_};
}

std::optional<glm::dvec2> ScreenProjector::toWindow(const glm::dvec3& world) const {
  const glm::dvec4 c = clip(world);
  if (!(c.w > double(camera_.nearPlane))) return std::nullopt;
  return windowOf(c);
}

std::optional<std::pair<glm::dvec2, glm::dvec2>> ScreenProjector::segment(
    const glm::dvec3& a, const glm::dvec3& b) const {
  glm::dvec4 ca = clip(a), cb = clip(b);
  const double near = camera_.nearPlane;
  if (!(ca.w > near) && !(cb.w > near)) return std::nullopt;
  // w is affine along the segment: cut where it reaches the near plane.
  if (!(ca.w > near)) ca = cb + (ca - cb) * ((cb.w - near) / (cb.w - ca.w) * 0.999);
  if (!(cb.w > near)) cb = ca + (cb - ca) * ((ca.w - near) / (ca.w - cb.w) * 0.999);
  return std::pair{windowOf(ca), windowOf(cb)};
}

double ScreenProjector::unitsPerPixelAt(const glm::dvec3& world) const {
  const double depth =
      std::max(glm::dot(world - camera_.eye, camera_.forward()), double(camera_.nearPlane));
  return 2.0 * depth * std::tan(0.5 * double(camera_.fovYRadians)) / std::max(height_, 1.0);
}

}  // namespace pcv::app
