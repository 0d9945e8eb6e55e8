#include "viewer/tools/screen_projector.hpp"

#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

namespace pcv::app {

ScreenProjector::ScreenProjector(const Camera& camera, double windowWidth, double windowHeight)
    : camera_(camera), width_(windowWidth), height_(windowHeight) {
  viewProjection_ = camera.viewProjectionFromEye(windowWidth / std::max(windowHeight, 1.0));
}

glm::dvec4 ScreenProjector::clip(const glm::dvec3& world) const {
  glm::dvec4 c = viewProjection_ * glm::dvec4(world - camera_.eye, 1.0);
  // Orthographic clip w is 1: the near-plane tests below read the view depth instead, and
  // windowOf divides by 1 (x and y are scaled back to w = 1 there).
  if (camera_.orthographic()) {
    const double depth = glm::dot(world - camera_.eye, camera_.forward());
    c = glm::dvec4(c.x * depth, c.y * depth, c.z, depth);
  }
  return c;
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
  const double depth = glm::dot(world - camera_.eye, camera_.forward());
  return camera_.unitsPerPixel(depth, height_, width_ / std::max(height_, 1.0));
}

bool sameView(const Camera& a, const Camera& b) {
  return a.eye == b.eye && a.yawRadians == b.yawRadians && a.pitchRadians == b.pitchRadians &&
         a.fovYRadians == b.fovYRadians && a.projection == b.projection &&
         a.orthoWidth == b.orthoWidth && a.upAxis == b.upAxis;
}

}  // namespace pcv::app
