// The viewer's input: GLFW's callbacks and the script's events go through the same handlers, to
// the camera rig (fly, orbit, focus), the tools (measure clicks, clip handle drags, their keys)
// and the scene (files dropped on the window).
#include <epoxy/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <cstdio>

#include "viewer/viewer_window.hpp"

namespace pcv::app {
namespace {

constexpr double kDoubleClickSeconds = 0.35;
/// A press and release closer than this is a click, not a drag (window pixels).
constexpr double kClickSlopPx = 4.0;
/// How near a clip handle's circle the cursor grabs it (window pixels, before HiDPI scaling).
constexpr double kHandleGrabPx = 9.0;

ViewerWindow& viewerOf(GLFWwindow* window) {
  return *static_cast<ViewerWindow*>(glfwGetWindowUserPointer(window));
}

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

void ViewerWindow::installCallbacks() {
  GLFWwindow* window = window_.handle();
  glfwSetWindowUserPointer(window, this);
  glfwSetKeyCallback(window, [](GLFWwindow* w, int key, int, int action, int) {
    if (!ImGui::GetIO().WantCaptureKeyboard || action == GLFW_RELEASE)
      viewerOf(w).onKey(key, action);
  });
  glfwSetCursorPosCallback(window,
                           [](GLFWwindow* w, double x, double y) { viewerOf(w).onCursor(x, y); });
  glfwSetMouseButtonCallback(window, [](GLFWwindow* w, int button, int action, int) {
    if (!ImGui::GetIO().WantCaptureMouse || action == GLFW_RELEASE) {
      viewerOf(w).onMouseButton(button, action);
    }
  });
  glfwSetScrollCallback(window, [](GLFWwindow* w, double, double dy) {
    if (!ImGui::GetIO().WantCaptureMouse) viewerOf(w).onScroll(dy);
  });
  glfwSetDropCallback(window, [](GLFWwindow* w, int count, const char** paths) {
    viewerOf(w).onDrop(std::vector<std::string>(paths, paths + count));
  });
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
    case GLFW_KEY_HOME:
      goHome();
      break;
    case GLFW_KEY_C:
      copyView();
      break;
    case GLFW_KEY_B:
      saveBookmark("View " + std::to_string(views_.bookmarks.size() + 1));
      break;
    case GLFW_KEY_X:
      toggleClipBox();
      break;
    default:
      onToolKey(key);
      break;
  }
}

void ViewerWindow::onToolKey(int key) {
  if (key == GLFW_KEY_M) {
    measure_.setActive(!measure_.active());
    std::fprintf(stderr, "pcv: measure %s (%s)\n", measure_.active() ? "on" : "off",
                 measureKindName(measure_.kind()));
    return;
  }
  if (!measure_.active()) return;
  if (key >= GLFW_KEY_1 && key <= GLFW_KEY_4) measure_.setKind(MeasureKind(key - GLFW_KEY_1));
  if (key == GLFW_KEY_ENTER) finishMeasurement();
  if (key == GLFW_KEY_BACKSPACE) measure_.undoPoint();
  if (key == GLFW_KEY_DELETE && !measure_.finished().empty()) {
    measure_.remove(measure_.finished().size() - 1);
  }
}

void ViewerWindow::onCursor(double xPx, double yPx) {
  const glm::dvec2 cursor(xPx, yPx);
  const glm::dvec2 delta = input_.cursorPx ? cursor - *input_.cursorPx : glm::dvec2(0.0);
  const std::optional<glm::dvec2> previous = input_.cursorPx;
  input_.cursorPx = cursor;
  for (auto& pressed : input_.pressedAtPx) {
    if (pressed && glm::length(cursor - *pressed) >= kClickSlopPx) pressed.reset();  // a drag
  }
  if (draggedHandle_ != ClipHandle::None) {
    if (previous) dragHandle(settings_.clip, draggedHandle_, projector(), *previous, cursor);
    return;  // the handle moves, not the camera
  }
  if (!rig_.mouselook() && ImGui::GetIO().WantCaptureMouse) return;
  hoveredHandle_ = clipPanel_.showHandles && !rig_.mouselook()
                       ? handleAt(settings_.clip, projector(), cursor, kHandleGrabPx * uiScale_)
                       : ClipHandle::None;
  int windowWidth = 0, windowHeight = 0;
  glfwGetWindowSize(window_.handle(), &windowWidth, &windowHeight);
  rig_.cursorMoved(
      delta, windowHeight, input_.buttonHeld[GLFW_MOUSE_BUTTON_LEFT],
      input_.buttonHeld[GLFW_MOUSE_BUTTON_RIGHT] || input_.buttonHeld[GLFW_MOUSE_BUTTON_MIDDLE]);
}

void ViewerWindow::onMouseButton(int button, int action) {
  if (button < 0 || button >= int(input_.buttonHeld.size())) return;
  input_.buttonHeld[button] = action == GLFW_PRESS;
  double x = 0.0, y = 0.0;
  glfwGetCursorPos(window_.handle(), &x, &y);
  if (input_.cursorPx) x = input_.cursorPx->x, y = input_.cursorPx->y;  // scripted cursors
  const glm::dvec2 at(x, y);
  if (action == GLFW_RELEASE) {
    if (button == GLFW_MOUSE_BUTTON_LEFT && draggedHandle_ != ClipHandle::None) {
      draggedHandle_ = ClipHandle::None;
      reportClipBox();
    } else if (input_.pressedAtPx[button] && !rig_.mouselook() &&
               !(button == GLFW_MOUSE_BUTTON_LEFT && input_.releaseIsNoClick)) {
      onClick(button, x, y);
    }
    input_.pressedAtPx[button].reset();
    if (button == GLFW_MOUSE_BUTTON_LEFT) input_.releaseIsNoClick = false;
    return;
  }
  if (rig_.mouselook()) return;
  input_.pressedAtPx[button] = at;
  if (button != GLFW_MOUSE_BUTTON_LEFT) return;
  // A clip handle under the cursor is grabbed instead of orbiting or clicking.
  if (clipPanel_.showHandles) {
    draggedHandle_ = handleAt(settings_.clip, projector(), at, kHandleGrabPx * uiScale_);
    if (draggedHandle_ != ClipHandle::None) {
      input_.buttonHeld[button] = false;  // the rig does not orbit while a handle moves
      return;
    }
  }
  if (nowSeconds_ - input_.lastClickSeconds < kDoubleClickSeconds &&
      glm::length(at - input_.lastClickPx) < kClickSlopPx) {
    input_.releaseIsNoClick = true;
    if (measure_.active()) {
      finishMeasurement();  // a double click ends a polyline or polygon
    } else {
      onDoubleClick(x, y);
    }
    input_.lastClickSeconds = -1.0;
    return;
  }
  input_.lastClickSeconds = nowSeconds_;
  input_.lastClickPx = at;
}

void ViewerWindow::onClick(int button, double xPx, double yPx) {
  if (!measure_.active()) return;
  if (button == GLFW_MOUSE_BUTTON_LEFT) addMeasurePoint(xPx, yPx);
  if (button == GLFW_MOUSE_BUTTON_RIGHT) finishMeasurement();
}

void ViewerWindow::onScroll(double notches) {
  rig_.scrolled(notches);
}

std::optional<glm::dvec3> ViewerWindow::pickAt(double xPx, double yPx) {
  int windowWidth = 0, windowHeight = 0;
  glfwGetWindowSize(window_.handle(), &windowWidth, &windowHeight);
  if (framebufferWidthPx_ <= 0 || windowWidth <= 0 || windowHeight <= 0) return std::nullopt;
  // Window coordinates (y down) to framebuffer pixels (row 0 at the bottom), HiDPI included.
  const int pixelX = int(xPx * framebufferWidthPx_ / windowWidth);
  const int pixelY = framebufferHeightPx_ - 1 - int(yPx * framebufferHeightPx_ / windowHeight);
  const std::optional<glm::dvec3> picked = scene_->pick(
      rig_.camera(), frameSettings(), framebufferWidthPx_, framebufferHeightPx_, pixelX, pixelY);
  if (!picked) std::fprintf(stderr, "pcv: no point under the cursor at (%d, %d)\n", pixelX, pixelY);
  return picked;
}

void ViewerWindow::onDoubleClick(double xPx, double yPx) {
  const std::optional<glm::dvec3> picked = pickAt(xPx, yPx);
  if (!picked) return;
  rig_.focusOn(*picked);
  std::fprintf(stderr, "pcv: focus on (%.3f, %.3f, %.3f)\n", picked->x, picked->y, picked->z);
}

void ViewerWindow::addMeasurePoint(double xPx, double yPx) {
  const std::optional<glm::dvec3> picked = pickAt(xPx, yPx);
  if (!picked) return;
  const size_t finished = measure_.finished().size();
  measure_.addPoint(*picked, rig_.camera().upAxis);
  std::fprintf(stderr, "pcv: measure point (%.17g, %.17g, %.17g)\n", picked->x, picked->y,
               picked->z);
  if (measure_.finished().size() > finished) reportLastMeasurement();
}

void ViewerWindow::finishMeasurement() {
  if (measure_.finish()) reportLastMeasurement();
}

void ViewerWindow::reportLastMeasurement() const {
  const std::vector<Measurement>& list = measure_.finished();
  const MeasureResult r = measure(list.back());
  // Every digit: scripts and tests read the numbers back.
  std::fprintf(stderr,
               "pcv: measurement %zu (%s): length %.17g, horizontal %.17g, height %.17g, area "
               "%.17g\n",
               list.size(), measureKindName(list.back().kind), r.length, r.horizontal, r.height,
               r.area);
}

void ViewerWindow::onDrop(const std::vector<std::string>& paths) {
  // Shift adds to the scene, as the Data section's Add; else the first file replaces it.
  const bool add = input_.shiftHeld() ||
                   glfwGetKey(window_.handle(), GLFW_KEY_LEFT_SHIFT) == GLFW_PRESS ||
                   glfwGetKey(window_.handle(), GLFW_KEY_RIGHT_SHIFT) == GLFW_PRESS;
  std::fprintf(stderr, "pcv: %zu file(s) dropped: %s\n", paths.size(),
               add ? "adding them to the scene" : "opening them");
  openFiles(paths, !add);
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
    case ScriptAction::UiShot:
      pendingUiShots_.emplace_back(event.text);
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
    default:
      applyToolEvent(event);
      break;
  }
}

void ViewerWindow::applyToolEvent(const ScriptEvent& event) {
  switch (event.action) {
    case ScriptAction::Drop:
      onDrop({event.text});
      break;
    case ScriptAction::Measure: {
      MeasureKind kind;
      measure_.setActive(parseMeasureKind(event.text, kind));
      if (measure_.active()) measure_.setKind(kind);
      break;
    }
    case ScriptAction::ExportMeasures:
      exportMeasures(event.text);
      break;
    case ScriptAction::ClipBox: {
      const std::vector<double>& n = event.numbers;
      if (!(n[0] <= n[3] && n[1] <= n[4] && n[2] <= n[5])) {
        errors_.push_back("clip_box: the minimum corner must not exceed the maximum corner");
        break;
      }
      settings_.clip.box = ClipBox{{n[0], n[1], n[2]}, {n[3], n[4], n[5]}};
      reportClipBox();
      break;
    }
    case ScriptAction::ClipKeep:
      settings_.clip.keep = event.text == "outside" ? ClipKeep::Outside : ClipKeep::Inside;
      break;
    case ScriptAction::ClipOff:
      settings_.clip = {};
      break;
    case ScriptAction::BookmarkSave:
      saveBookmark(event.text);
      break;
    case ScriptAction::BookmarkRestore:
      restoreBookmark(event.text);
      break;
    default:
      break;
  }
}

}  // namespace pcv::app
