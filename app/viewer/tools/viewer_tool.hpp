/// @brief The seam for the viewer's tools (Measure, Clip, Views and what comes next): a tool
/// takes input before the camera does, draws a section of the sidebar and an overlay over the
/// scene, and registers the script commands it understands. A new tool is one class and one
/// line in standard_tools.cpp; the window, the sidebar and the script parser do not change.
#pragma once

#include <optional>

#include <glm/glm.hpp>
#include <nlohmann/json_fwd.hpp>

namespace pcv::app {

class ScriptCommands;
class ScreenProjector;

/// A key going down, repeating or up (GLFW key and action codes).
struct KeyEvent {
  int key = -1;
  int action = 0;
};

/// A mouse button going down or up (GLFW codes), or a click: down and up without a drag.
struct ButtonEvent {
  int button = 0;
  int action = 0;
  glm::dvec2 atPx{0.0};  ///< window coordinates (y down)
};

/// The cursor moved.
struct CursorEvent {
  glm::dvec2 atPx{0.0};                  ///< window coordinates (y down)
  std::optional<glm::dvec2> previousPx;  ///< empty for the first motion after mouselook changed
  bool overPanel = false;                ///< a panel has the mouse: no hover feedback
  bool mouselook = false;                ///< the cursor is hidden and turns the camera
};

class ViewerTool {
 public:
  virtual ~ViewerTool() = default;

  // Input, offered to the tools in order before the camera sees it. True when the tool took
  // the event: later tools and the camera do not see it.
  /// Presses and repeats (releases always reach the camera too).
  virtual bool onKey(const KeyEvent&) { return false; }
  /// A button down (not in mouselook) or up; a press taken is not dragged by the camera.
  virtual bool onButton(const ButtonEvent&) { return false; }
  /// A click: a press and release at the same place, outside mouselook.
  virtual bool onClick(const ButtonEvent&) { return false; }
  /// A double click with the left button; not taken, the camera focuses on the point there.
  virtual bool onDoubleClick(glm::dvec2) { return false; }
  virtual bool onCursor(const CursorEvent&) { return false; }
  virtual bool onScroll(double /*notches*/) { return false; }
  /// Escape: drops the action in progress (the corners of a polygon being drawn, a measurement's
  /// points, a handle being dragged); with none in progress, leaves the tool's mode (drawing,
  /// measuring). True when there was something to cancel: Escape then does nothing else.
  virtual bool cancel() { return false; }

  /// The sidebar section's title; nullptr: the tool has none.
  virtual const char* sectionTitle() const { return nullptr; }
  virtual bool sectionOpenByDefault() const { return false; }
  /// While true the section is held open, and scrolled into view when it turns true.
  virtual bool inUse() const { return false; }
  /// The section's contents (ImGui, inside the sidebar window).
  virtual void drawSection() {}
  /// What the tool draws over the scene (ImGui's background draw list: behind every panel).
  virtual void drawOverlay(const ScreenProjector&) {}

  /// Registers the script commands the tool understands, with their parsing.
  virtual void addScriptCommands(ScriptCommands&) {}
  /// The scene shown has (new) bounds: a file arrived or the scene was replaced.
  virtual void onSceneShown() {}
  /// Once per frame before rendering, with the viewer's clock (seconds; simulated under
  /// --frame-dt): for tools that move the camera over time (the Path tool's playback).
  virtual void onFrame(double /*nowSeconds*/) {}
  /// Adds what the tool did to the viewer's run report (`--report`), for scripts and tests.
  virtual void addToReport(nlohmann::json& /*report*/) const {}
};

}  // namespace pcv::app
