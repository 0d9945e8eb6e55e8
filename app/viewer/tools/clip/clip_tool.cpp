#include "viewer/tools/clip/clip_tool.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>  // key and button codes only

#include <cstdio>

#include "viewer/input/input_script.hpp"
#include "viewer/tools/clip/clip_start_box.hpp"

namespace pcv::app {
namespace {

/// How near a handle's circle the cursor grabs it (window pixels, before HiDPI scaling).
constexpr double kHandleGrabPx = 9.0;

}  // namespace

bool ClipTool::onKey(const KeyEvent& event) {
  if (event.key != GLFW_KEY_X) return false;
  if (event.action == GLFW_PRESS) toggleBox();
  return true;
}

bool ClipTool::onButton(const ButtonEvent& event) {
  if (event.button != GLFW_MOUSE_BUTTON_LEFT) return false;
  if (event.action == GLFW_RELEASE) {
    if (dragged_ == ClipHandle::None) return false;
    dragged_ = ClipHandle::None;
    reportBox();
    return true;
  }
  // A handle under the cursor is grabbed instead of orbiting or clicking.
  if (panel_.showHandles) dragged_ = handleUnder(event.atPx);
  if (dragged_ != ClipHandle::None) beforeDrag_ = host_.settings().clip;
  return dragged_ != ClipHandle::None;
}

bool ClipTool::onCursor(const CursorEvent& event) {
  if (dragged_ != ClipHandle::None) {
    if (event.previousPx) {
      dragHandle(host_.settings().clip, dragged_, host_.projector(), *event.previousPx, event.atPx);
    }
    return true;  // the handle moves, not the camera
  }
  if (event.overPanel) return false;
  hovered_ = panel_.showHandles && !event.mouselook ? handleUnder(event.atPx) : ClipHandle::None;
  return false;
}

bool ClipTool::cancel() {
  if (dragged_ == ClipHandle::None) return false;
  dragged_ = ClipHandle::None;
  ClipSettings& clip = host_.settings().clip;
  clip.box = beforeDrag_.box;
  clip.slab = beforeDrag_.slab;
  std::fprintf(stderr, "pcv: clip drag cancelled\n");
  reportBox();
  return true;
}

void ClipTool::drawSection() {
  drawClipSection(host_.settings().clip, panel_, host_.scene(), host_.rig().camera());
}

void ClipTool::drawOverlay(const ScreenProjector& projector) {
  drawClipOverlay(host_.settings().clip, panel_, projector, hovered_);
}

void ClipTool::addScriptCommands(ScriptCommands& commands) {
  commands.add("clip_box", [this](ScriptLine& line) {
    double n[6];
    for (double& number : n) number = line.number("x0 y0 z0 x1 y1 z1");
    const ClipBox box{{n[0], n[1], n[2]}, {n[3], n[4], n[5]}};
    return stepOf([this, box] {
      if (!(box.min.x <= box.max.x && box.min.y <= box.max.y && box.min.z <= box.max.z)) {
        host_.showError("clip_box: the minimum corner must not exceed the maximum corner");
        return;
      }
      host_.settings().clip.box = box;
      reportBox();
    });
  });
  commands.add("clip_keep", [this](ScriptLine& line) {
    const ClipKeep keep = line.oneOf({"inside", "outside"}, "inside or outside") == "outside"
                              ? ClipKeep::Outside
                              : ClipKeep::Inside;
    return stepOf([this, keep] { host_.settings().clip.keep = keep; });
  });
  commands.add("clip_off",
               [this](ScriptLine&) { return stepOf([this] { host_.settings().clip = {}; }); });
}

ClipHandle ClipTool::handleUnder(glm::dvec2 atPx) const {
  return handleAt(host_.settings().clip, host_.projector(), atPx, kHandleGrabPx * host_.uiScale());
}

void ClipTool::toggleBox() {
  ClipSettings& clip = host_.settings().clip;
  if (clip.box) {
    clip.box.reset();
    std::fprintf(stderr, "pcv: clip box off\n");
    return;
  }
  // Visibly cut, ready to be dragged; in a plan view the whole height.
  clip.box = startingClipBox(host_.scene().shownBounds(), host_.rig().camera());
  reportBox();
}

void ClipTool::reportBox() const {
  if (!host_.settings().clip.box) return;
  const ClipBox& box = *host_.settings().clip.box;
  std::fprintf(stderr, "pcv: clip box (%.6f, %.6f, %.6f) to (%.6f, %.6f, %.6f)\n", box.min.x,
               box.min.y, box.min.z, box.max.x, box.max.y, box.max.z);
}

}  // namespace pcv::app
