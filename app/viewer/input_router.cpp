#include "viewer/input_router.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>  // key and button codes only; nothing here calls GLFW

namespace pcv::app {
namespace {

constexpr double kDoubleClickSeconds = 0.35;
/// A press and release closer than this is a click, not a drag (window pixels).
constexpr double kClickSlopPx = 4.0;

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
  keys.fast = shiftHeld();
  return keys;
}

bool InputState::shiftHeld() const {
  return keyHeld[GLFW_KEY_LEFT_SHIFT] || keyHeld[GLFW_KEY_RIGHT_SHIFT];
}

InputRouter::InputRouter(ToolList& tools, CameraRig& rig, std::function<void(glm::dvec2)> focusAt)
    : tools_(tools), rig_(rig), focusAt_(std::move(focusAt)) {}

bool InputRouter::key(int key, int action) {
  if (key < 0 || key >= InputState::kKeyCount) return false;
  if (action == GLFW_RELEASE) {
    state_.keyHeld[key] = false;  // whoever took the press, nothing stays held
    return false;
  }
  // A key a tool takes is not held for the camera either.
  if (tools_.key(KeyEvent{.key = key, .action = action})) return false;
  state_.keyHeld[key] = true;
  return action == GLFW_PRESS;
}

void InputRouter::cursor(glm::dvec2 atPx, bool overPanel, int windowHeightPx) {
  const std::optional<glm::dvec2> previous = state_.cursorPx;
  const glm::dvec2 delta = previous ? atPx - *previous : glm::dvec2(0.0);
  state_.cursorPx = atPx;
  for (auto& pressed : state_.pressedAtPx) {
    if (pressed && glm::length(atPx - *pressed) >= kClickSlopPx) pressed.reset();  // a drag
  }
  const CursorEvent event{.atPx = atPx,
                          .previousPx = previous,
                          .overPanel = overPanel && !rig_.mouselook(),
                          .mouselook = rig_.mouselook()};
  if (tools_.cursor(event) || event.overPanel) return;
  rig_.cursorMoved(
      delta, windowHeightPx, state_.buttonHeld[GLFW_MOUSE_BUTTON_LEFT],
      state_.buttonHeld[GLFW_MOUSE_BUTTON_RIGHT] || state_.buttonHeld[GLFW_MOUSE_BUTTON_MIDDLE]);
}

void InputRouter::button(int button, int action, glm::dvec2 atPx, double nowSeconds) {
  if (button < 0 || button >= int(state_.buttonHeld.size())) return;
  state_.buttonHeld[button] = action == GLFW_PRESS;
  const ButtonEvent event{.button = button, .action = action, .atPx = atPx};
  if (action == GLFW_RELEASE) {
    const bool click = state_.pressedAtPx[button] && !rig_.mouselook() &&
                       !(button == GLFW_MOUSE_BUTTON_LEFT && state_.releaseIsNoClick);
    state_.pressedAtPx[button].reset();
    if (button == GLFW_MOUSE_BUTTON_LEFT) state_.releaseIsNoClick = false;
    // A release a tool takes (the end of its drag) is no click.
    if (!tools_.button(event) && click) tools_.click(event);
    return;
  }
  if (rig_.mouselook()) return;
  state_.pressedAtPx[button] = atPx;
  if (tools_.button(event)) {
    state_.buttonHeld[button] = false;  // the camera does not drag while a tool does
    return;
  }
  if (button != GLFW_MOUSE_BUTTON_LEFT) return;
  if (nowSeconds - state_.lastClickSeconds < kDoubleClickSeconds &&
      glm::length(atPx - state_.lastClickPx) < kClickSlopPx) {
    state_.releaseIsNoClick = true;
    doubleClick(atPx);
    state_.lastClickSeconds = -1.0;
    return;
  }
  state_.lastClickSeconds = nowSeconds;
  state_.lastClickPx = atPx;
}

void InputRouter::scroll(double notches) {
  if (!tools_.scroll(notches)) rig_.scrolled(notches);
}

void InputRouter::doubleClick(glm::dvec2 atPx) {
  if (!tools_.doubleClick(atPx)) focusAt_(atPx);
}

}  // namespace pcv::app
