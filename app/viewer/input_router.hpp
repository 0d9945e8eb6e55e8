/// @brief Where the viewer's input goes: to the tools first, in order, and to the camera only
/// when no tool took it. Keeps what is held, the cursor and the clicks (a press and release
/// without a drag is a click; two left presses near in time and place are a double click). No
/// window: the viewer feeds it GLFW's events and the script's alike, the tests drive it.
#pragma once

#include <array>
#include <functional>
#include <optional>

#include <glm/glm.hpp>

#include "camera/camera_rig.hpp"
#include "camera/motion_keys.hpp"
#include "viewer/tools/tool_list.hpp"

namespace pcv::app {

/// Keys and buttons held, the cursor, the last click (for double clicks) and where the buttons
/// went down (a press and release without a drag is a click).
struct InputState {
  static constexpr int kKeyCount = 512;  // > GLFW_KEY_LAST
  std::array<bool, kKeyCount> keyHeld{};
  std::array<bool, 8> buttonHeld{};
  std::optional<glm::dvec2> cursorPx;
  double lastClickSeconds = -1.0;
  glm::dvec2 lastClickPx{0.0};
  std::array<std::optional<glm::dvec2>, 8> pressedAtPx;  ///< per button, until it is dragged
  bool releaseIsNoClick = false;  ///< the press was a double click: its release adds nothing
  MotionKeys motionKeys() const;
  bool shiftHeld() const;
};

class InputRouter {
 public:
  /// `focusAt` is the camera's double click: turn to the point under that window position.
  InputRouter(ToolList& tools, CameraRig& rig, std::function<void(glm::dvec2)> focusAt);

  const InputState& state() const { return state_; }

  /// A key (GLFW action); true for a press no tool took: the window's own keys come next.
  bool key(int key, int action);
  /// The cursor at `atPx`; `overPanel`: a panel has the mouse (the camera leaves it alone
  /// outside mouselook); `windowHeightPx` scales drags.
  void cursor(glm::dvec2 atPx, bool overPanel, int windowHeightPx);
  /// A button (GLFW action) at `atPx`; `nowSeconds` tells a double click from two clicks.
  void button(int button, int action, glm::dvec2 atPx, double nowSeconds);
  void scroll(double notches);
  /// A double click: a tool's (Measure ends a line) or the camera's focus.
  void doubleClick(glm::dvec2 atPx);
  /// The next cursor position is no motion (mouselook switched).
  void forgetCursor() { state_.cursorPx.reset(); }

 private:
  ToolList& tools_;
  CameraRig& rig_;
  std::function<void(glm::dvec2)> focusAt_;
  InputState state_;
};

}  // namespace pcv::app
