// What the window lends its tools: the camera mode, the view as `pcv render` needs it, the
// projection and picking under the cursor, the error window and the clipboard.
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "viewer/viewer_window.hpp"

namespace pcv::app {

void ViewerWindow::setMode(CameraMode mode) {
  if (mode == rig_.mode()) return;
  if (mode == CameraMode::Orbit && rig_.mouselook()) setMouselook(false);
  // Orbit around what is ahead, at the depth of the scene's centre (at least 1 unit for the
  // cylinders around the world origin; a thousandth of the scene for loaded files).
  const Camera& camera = rig_.camera();
  const SceneParts& parts = scene_->parts();
  const Box3d bounds = parts.filesBounds();
  const bool files = parts.holdsFiles();
  const double toCentre =
      files ? glm::dot(bounds.center() - camera.eye, camera.forward()) : glm::length(camera.eye);
  rig_.setMode(mode, std::max(files ? 1e-3 * bounds.diagonal() : 1.0, toCentre));
  std::fprintf(stderr, "pcv: %s mode\n", mode == CameraMode::Fly ? "fly" : "orbit");
}

ViewDescription ViewerWindow::describeView() const {
  ViewDescription view{.camera = rig_.camera(),
                       .widthPx = framebufferPx_.x,
                       .heightPx = framebufferPx_.y,
                       .settings = frameSettings(),
                       .coloring = scene_->coloring().asked,
                       .read = readOptions_};
  const SceneParts& parts = scene_->parts();
  if (parts.holdsFiles()) {
    // Absolute: the command works from any folder.
    for (const std::string& file : parts.files()) {
      view.files.push_back(std::filesystem::absolute(file).lexically_normal().string());
    }
  } else {
    view.demoPoints = parts.demo.pointCount;
    view.demoSeed = parts.demo.seed;
  }
  return view;
}

ScreenProjector ViewerWindow::projector() const {
  const glm::ivec2 window = windowSize();
  return ScreenProjector(rig_.camera(), window.x, window.y);
}

std::optional<glm::dvec3> ViewerWindow::pickAt(glm::dvec2 windowPx) {
  const glm::ivec2 window = windowSize();
  if (framebufferPx_.x <= 0 || window.x <= 0 || window.y <= 0) return std::nullopt;
  // Window coordinates (y down) to framebuffer pixels (row 0 at the bottom), HiDPI included.
  const int pixelX = int(windowPx.x * framebufferPx_.x / window.x);
  const int pixelY = framebufferPx_.y - 1 - int(windowPx.y * framebufferPx_.y / window.y);
  const std::optional<glm::dvec3> picked = scene_->pick(
      rig_.camera(), frameSettings(), framebufferPx_.x, framebufferPx_.y, pixelX, pixelY);
  if (!picked) std::fprintf(stderr, "pcv: no point under the cursor at (%d, %d)\n", pixelX, pixelY);
  return picked;
}

void ViewerWindow::showError(const std::string& message) {
  // The one place a viewer error is printed: the scene's come here through its report alone.
  std::fprintf(stderr, "pcv: error: %s\n", message.c_str());
  errors_.push_back(message);
  errorLog_.push_back(message);
}

void ViewerWindow::setClipboard(const std::string& text) {
  glfwSetClipboardString(window_.handle(), text.c_str());
}

}  // namespace pcv::app
