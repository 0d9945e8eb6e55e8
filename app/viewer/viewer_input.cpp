// The viewer's input: keys, cursor, buttons and wheel from GLFW and from the script alike, routed
// to the camera rig and the scene model; double-clicks pick and focus.
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "viewer/viewer_window.hpp"

namespace pcv::app {
namespace {

constexpr double kDoubleClickSeconds = 0.35;
constexpr double kDoubleClickSlopPx = 4.0;

}  // namespace

MotionKeys InputState::motionKeys() const {
  MotionKeys keys;
  keys.forward = keyHeld[GLFW_KEY_W];
  keys.back = keyHeld[GLFW_KEY_S];
  keys.left = keyHeld[GLFW_KEY_A];
  keys.right = keyHeld[GLFW_KEY_D];
  keys.up = keyHeld[GLFW_KEY_E] || keyHeld[GLFW_KEY_SPACE];
  keys.down =
      keyHeld[GLFW_KEY_Q] || keyHeld[GLFW_KEY_LEFT_CONTROL] || keyHeld[GLFW_KEY_RIGHT_CONTROL];
  keys.fast = keyHeld[GLFW_KEY_LEFT_SHIFT] || keyHeld[GLFW_KEY_RIGHT_SHIFT];
  return keys;
}

void ViewerWindow::onKey(int key, int action) {
  if (key < 0 || key >= InputState::kKeyCount) return;
  if (action == GLFW_PRESS || action == GLFW_REPEAT) input_.keyHeld[key] = true;
  if (action == GLFW_RELEASE) input_.keyHeld[key] = false;
  if (action != GLFW_PRESS) return;
  switch (key) {
    case GLFW_KEY_ESCAPE:
      setMouselook(!rig_.mouselook());
      break;
    case GLFW_KEY_TAB:
      setMode(rig_.mode() == CameraMode::Fly ? CameraMode::Orbit : CameraMode::Fly);
      break;
    case GLFW_KEY_F12:
      pendingScreenshots_.push_back(nextScreenshotPath());
      break;
    default:
      break;
  }
}

void ViewerWindow::onCursor(double xPx, double yPx) {
  const glm::dvec2 cursor(xPx, yPx);
  const glm::dvec2 delta = input_.cursorPx ? cursor - *input_.cursorPx : glm::dvec2(0.0);
  input_.cursorPx = cursor;
  if (!rig_.mouselook() && ImGui::GetIO().WantCaptureMouse) return;
  int windowWidth = 0, windowHeight = 0;
  glfwGetWindowSize(window_.handle(), &windowWidth, &windowHeight);
  rig_.cursorMoved(
      delta, windowHeight, input_.buttonHeld[GLFW_MOUSE_BUTTON_LEFT],
      input_.buttonHeld[GLFW_MOUSE_BUTTON_RIGHT] || input_.buttonHeld[GLFW_MOUSE_BUTTON_MIDDLE]);
}

void ViewerWindow::onMouseButton(int button, int action) {
  if (button < 0 || button >= int(input_.buttonHeld.size())) return;
  input_.buttonHeld[button] = action == GLFW_PRESS;
  if (action != GLFW_PRESS || button != GLFW_MOUSE_BUTTON_LEFT || rig_.mouselook()) return;
  double x = 0.0, y = 0.0;
  glfwGetCursorPos(window_.handle(), &x, &y);
  if (input_.cursorPx) x = input_.cursorPx->x, y = input_.cursorPx->y;  // scripted cursors
  const glm::dvec2 click(x, y);
  if (nowSeconds_ - input_.lastClickSeconds < kDoubleClickSeconds &&
      glm::length(click - input_.lastClickPx) < kDoubleClickSlopPx) {
    onDoubleClick(x, y);
    input_.lastClickSeconds = -1.0;
    return;
  }
  input_.lastClickSeconds = nowSeconds_;
  input_.lastClickPx = click;
}

void ViewerWindow::onScroll(double notches) {
  rig_.scrolled(notches);
}

void ViewerWindow::onDoubleClick(double xPx, double yPx) {
  int windowWidth = 0, windowHeight = 0;
  glfwGetWindowSize(window_.handle(), &windowWidth, &windowHeight);
  if (framebufferWidthPx_ <= 0 || windowWidth <= 0 || windowHeight <= 0) return;
  // Window coordinates (y down) to framebuffer pixels (row 0 at the bottom), HiDPI included.
  const int pixelX = int(xPx * framebufferWidthPx_ / windowWidth);
  const int pixelY = framebufferHeightPx_ - 1 - int(yPx * framebufferHeightPx_ / windowHeight);
  const std::optional<glm::dvec3> picked =
      scene_->pick(rig_.camera(), framebufferWidthPx_, framebufferHeightPx_, pixelX, pixelY);
  if (!picked) {
    std::fprintf(stderr, "pcv: no point under the cursor at (%d, %d)\n", pixelX, pixelY);
    return;
  }
  rig_.focusOn(*picked);
  std::fprintf(stderr, "pcv: focus on (%.3f, %.3f, %.3f)\n", picked->x, picked->y, picked->z);
}

void ViewerWindow::setMouselook(bool on) {
  rig_.setMouselook(on);
  GLFWwindow* window = window_.handle();
  if (on) {
    glfwSetInputMode(window, GLFW_CURSOR, GLFW_CURSOR_DISABLED);
    if (glfwRawMouseMotionSupported()) glfwSetInputMode(window, GLFW_RAW_MOUSE_MOTION, GLFW_TRUE);
  } else {
    if (glfwRawMouseMotionSupported()) glfwSetInputMode(window, GLFW_RAW_MOUSE_MOTION, GLFW_FALSE);
    glfwSetInputMode(window, GLFW_CURSOR, GLFW_CURSOR_NORMAL);
  }
  input_.cursorPx.reset();  // the first motion after a switch is not a delta
  std::fprintf(stderr, "pcv: mouselook %s\n", on ? "on" : "off");
}

void ViewerWindow::setMode(CameraMode mode) {
  if (mode == rig_.mode()) return;
  if (mode == CameraMode::Orbit && rig_.mouselook()) setMouselook(false);
  // Orbit around what is ahead, at the distance of the scene's centre (at least 1 unit for the
  // cylinders around the world origin; a thousandth of the scene for loaded files).
  const Camera& camera = rig_.camera();
  const Box3d& bounds = scene_->bounds();
  const bool files = scene_->hasCloud();
  const double toCentre =
      files ? glm::length(bounds.center() - camera.eye) : glm::length(camera.eye);
  rig_.setMode(mode, std::max(files ? 1e-3 * bounds.diagonal() : 1.0, toCentre));
  std::fprintf(stderr, "pcv: %s mode\n", mode == CameraMode::Fly ? "fly" : "orbit");
}

void ViewerWindow::applyScript(double nowSeconds) {
  while (nextScriptEvent_ < script_.size() && script_[nextScriptEvent_].timeSeconds <= nowSeconds) {
    if (script_[nextScriptEvent_].action == ScriptAction::WaitLoad && scene_->loading()) return;
    applyScriptEvent(script_[nextScriptEvent_++]);
  }
}

void ViewerWindow::applyScriptEvent(const ScriptEvent& event) {
  switch (event.action) {
    case ScriptAction::KeyDown:
      onKey(event.key, GLFW_PRESS);
      break;
    case ScriptAction::KeyUp:
      onKey(event.key, GLFW_RELEASE);
      break;
    case ScriptAction::KeyPress:
      onKey(event.key, GLFW_PRESS);
      onKey(event.key, GLFW_RELEASE);
      break;
    case ScriptAction::MouseMove:
      onCursor(event.x, event.y);
      break;
    case ScriptAction::MouseDown:
      onMouseButton(event.key, GLFW_PRESS);
      break;
    case ScriptAction::MouseUp:
      onMouseButton(event.key, GLFW_RELEASE);
      break;
    case ScriptAction::Scroll:
      onScroll(event.x);
      break;
    case ScriptAction::DoubleClick:
      onDoubleClick(event.x, event.y);
      break;
    case ScriptAction::Resize:
      glfwSetWindowSize(window_.handle(), int(event.x), int(event.y));
      break;
    case ScriptAction::Screenshot:
      pendingScreenshots_.emplace_back(event.text);
      break;
    case ScriptAction::WindowShot:
      pendingWindowShots_.emplace_back(event.text);
      break;
    case ScriptAction::Mode:
      setMode(event.text == "orbit" ? CameraMode::Orbit : CameraMode::Fly);
      break;
    case ScriptAction::Open:
    case ScriptAction::Add:
      openFiles({event.text}, event.action == ScriptAction::Open);
      break;
    case ScriptAction::Color: {
      ColoringOptions coloring = scene_->coloring();
      coloring.mode = parseColorMode(event.text);
      coloring.attribute = event.attribute;
      scene_->setColoring(coloring);
      break;
    }
    case ScriptAction::WaitLoad:
      break;
    case ScriptAction::Quit:
      quit_ = true;
      break;
  }
}

}  // namespace pcv::app
