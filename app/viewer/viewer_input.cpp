// The viewer's input: GLFW's callbacks and the script's commands go through the same handlers,
// to the input router (the tools first, then the camera), to the window's own keys (Escape:
// mouselook off, a tool's action cancelled, or mouselook on; Tab, F12) and to the scene (files
// opened or dropped on the window).
#include <epoxy/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <cstdio>

#include "viewer/viewer_window.hpp"

namespace pcv::app {
namespace {

ViewerWindow& viewerOf(GLFWwindow* window) {
  return *static_cast<ViewerWindow*>(glfwGetWindowUserPointer(window));
}

}  // namespace

void ViewerWindow::installCallbacks() {
  GLFWwindow* window = window_.handle();
  glfwSetWindowUserPointer(window, this);
  glfwSetKeyCallback(window, [](GLFWwindow* w, int key, int, int action, int) {
    if (!ImGui::GetIO().WantCaptureKeyboard || action == GLFW_RELEASE) viewerOf(w).key(key, action);
  });
  glfwSetCursorPosCallback(
      window, [](GLFWwindow* w, double x, double y) { viewerOf(w).cursor(glm::dvec2(x, y)); });
  glfwSetMouseButtonCallback(window, [](GLFWwindow* w, int button, int action, int) {
    if (!ImGui::GetIO().WantCaptureMouse || action == GLFW_RELEASE) {
      viewerOf(w).mouseButton(button, action);
    }
  });
  glfwSetScrollCallback(window, [](GLFWwindow* w, double, double dy) {
    if (!ImGui::GetIO().WantCaptureMouse) viewerOf(w).scroll(dy);
  });
  glfwSetDropCallback(window, [](GLFWwindow* w, int count, const char** paths) {
    viewerOf(w).dropFiles(std::vector<std::string>(paths, paths + count));
  });
}

ScriptPlayer ViewerWindow::loadScript(const std::string& path) {
  ScriptCommands commands;
  addWindowCommands(commands, *this);
  tools_.addScriptCommands(commands);
  return ScriptPlayer(loadInputScript(path, commands));
}

void ViewerWindow::key(int key, int action) {
  if (!input_.key(key, action)) return;  // a tool's key, a repeat or a release
  switch (key) {
    case GLFW_KEY_ESCAPE:
      escape();
      break;
    case GLFW_KEY_TAB:
      setMode(rig_.mode() == CameraMode::Fly ? CameraMode::Orbit : CameraMode::Fly);
      break;
    case GLFW_KEY_F12:
      shots_.scene.push_back(nextScreenshotPath());
      break;
    default:
      break;
  }
}

glm::ivec2 ViewerWindow::windowSize() const {
  glm::ivec2 size(0);
  glfwGetWindowSize(window_.handle(), &size.x, &size.y);
  return size;
}

void ViewerWindow::cursor(glm::dvec2 atPx) {
  input_.cursor(atPx, ImGui::GetIO().WantCaptureMouse, windowSize().y);
}

void ViewerWindow::mouseButton(int button, int action) {
  glm::dvec2 at(0.0);
  glfwGetCursorPos(window_.handle(), &at.x, &at.y);
  if (input_.state().cursorPx) at = *input_.state().cursorPx;  // scripted cursors
  input_.button(button, action, at, nowSeconds_);
}

void ViewerWindow::scroll(double notches) {
  input_.scroll(notches);
}

void ViewerWindow::doubleClick(glm::dvec2 atPx) {
  input_.doubleClick(atPx);
}

void ViewerWindow::focusAt(glm::dvec2 atPx) {
  const std::optional<glm::dvec3> picked = pickAt(atPx);
  if (!picked) return;
  rig_.focusOn(*picked);
  std::fprintf(stderr, "pcv: focus on (%.3f, %.3f, %.3f)\n", picked->x, picked->y, picked->z);
}

void ViewerWindow::resize(int widthPx, int heightPx) {
  glfwSetWindowSize(window_.handle(), widthPx, heightPx);
}

void ViewerWindow::shoot(ShotKind kind, const std::string& path) {
  switch (kind) {
    case ShotKind::Scene:
      shots_.scene.emplace_back(path);
      break;
    case ShotKind::Window:
      shots_.window.emplace_back(path);
      break;
    case ShotKind::Ui:
      shots_.ui.emplace_back(path);
      break;
  }
}

void ViewerWindow::openFile(const std::string& path, bool replace) {
  openFiles({path}, replace);
}

void ViewerWindow::drop(const std::string& path) {
  dropFiles({path});
}

void ViewerWindow::closeStream() {
  scene_->closeStream();
}

void ViewerWindow::removeFiles() {
  scene_->removeFiles();
}

void ViewerWindow::frameTile(size_t index) {
  const StreamPart* streamed = scene_->parts().stream.get();
  if (!streamed || !streamed->tiles() || index >= streamed->tiles()->tiles.size()) {
    showError("no tile " + std::to_string(index) + " to frame: the scene is not a dataset of " +
              "that many tiles");
    return;
  }
  const Tile& tile = streamed->tiles()->tiles[index];
  std::fprintf(stderr, "pcv: framing tile %zu (%s)\n", index, tile.path.c_str());
  rig_.setFollowsScene(false);  // the tile stays framed as the rest arrives
  rig_.frame(tile.bounds, aspect(), {}, sidebarShare_);
}

void ViewerWindow::showTileBoxes(bool shown) {
  scene_->setTileBoxes(shown);
}

void ViewerWindow::dropFiles(const std::vector<std::string>& paths) {
  // Shift adds to the scene, as the Data section's Add; else the first file replaces it.
  const bool add = input_.state().shiftHeld() ||
                   glfwGetKey(window_.handle(), GLFW_KEY_LEFT_SHIFT) == GLFW_PRESS ||
                   glfwGetKey(window_.handle(), GLFW_KEY_RIGHT_SHIFT) == GLFW_PRESS;
  std::fprintf(stderr, "pcv: %zu file(s) dropped: %s\n", paths.size(),
               add ? "adding them to the scene" : "opening them");
  openFiles(paths, !add);
}

void ViewerWindow::color(const std::string& mode, const std::string& attribute) {
  ColoringOptions coloring = scene_->coloring().asked;
  coloring.mode = parseColorMode(mode);
  coloring.attribute = attribute;
  scene_->setColoring(coloring);
}

bool ViewerWindow::loading() const {
  return scene_->loading();
}

void ViewerWindow::escape() {
  // Mouselook first: the cursor is hidden and no tool takes clicks until it ends.
  if (!rig_.mouselook()) {
    if (const ViewerTool* tool = tools_.cancel()) {
      escapes_.push_back(
          {.cancelledTool = tool->sectionTitle() ? tool->sectionTitle() : "", .mouselook = false});
      return;
    }
  }
  setMouselook(!rig_.mouselook());
  escapes_.push_back({.cancelledTool = "", .mouselook = rig_.mouselook()});
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
  input_.forgetCursor();  // the first motion after a switch is not a delta
  std::fprintf(stderr, "pcv: mouselook %s\n", on ? "on" : "off");
}

}  // namespace pcv::app
