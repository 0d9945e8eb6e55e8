#include "viewer/tools/views/views_tool.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>  // key codes only

#include <cstdio>
#include <filesystem>

#include "pcv/core/camera_framing.hpp"
#include "pcv/core/error.hpp"
#include "options/render_arguments.hpp"
#include "viewer/input/input_script.hpp"

namespace pcv::app {

bool ViewsTool::onKey(const KeyEvent& event) {
  const bool press = event.action == GLFW_PRESS;
  switch (event.key) {
    case GLFW_KEY_HOME:
      if (press) goHome();
      return true;
    case GLFW_KEY_C:
      if (press) copyView();
      return true;
    case GLFW_KEY_B:
      if (press) saveBookmark("View " + std::to_string(panel_.bookmarks.size() + 1));
      return true;
    default:
      return false;
  }
}

void ViewsTool::drawSection() {
  // Carried out after the section is drawn: its list of bookmarks is not changed while it is
  // walked.
  ViewsRequests requests;
  drawCameraSection(host_.rig(), panel_, requests);
  if (requests.mode) host_.setMode(*requests.mode);
  if (requests.home) goHome();
  if (requests.copyView) copyView();
  if (requests.upAxis) setUpAxis(*requests.upAxis);
  if (requests.projection) {
    setProjection(*requests.projection == 0 ? std::nullopt
                                            : std::optional(OrthoView(*requests.projection - 1)));
  }
  if (requests.saveBookmark) saveBookmark(*requests.saveBookmark);
  if (requests.restoreBookmark) restoreBookmark(*requests.restoreBookmark);
  if (requests.deleteBookmark) deleteBookmark(*requests.deleteBookmark);
}

void ViewsTool::addScriptCommands(ScriptCommands& commands) {
  commands.add("bookmark_save", [this](ScriptLine& line) {
    return stepOf([this, name = line.word("a bookmark name")] { saveBookmark(name); });
  });
  commands.add("bookmark_restore", [this](ScriptLine& line) {
    return stepOf([this, name = line.word("a bookmark name")] { restoreBookmark(name); });
  });
  commands.add("view_projection", [this](ScriptLine& line) {
    const std::string name = line.word("perspective, plan, front or side");
    const std::optional<OrthoView> view = orthoViewNamed(name);
    if (!view && name != "perspective") {
      throw InputError("view_projection expects perspective, plan, front or side, got " + name);
    }
    return stepOf([this, view] { setProjection(view); });
  });
}

void ViewsTool::drawOverlay(const ScreenProjector& projector) {
  drawScaleBarOverlay(projector, projector.windowHeight() * double(host_.aspect()),
                      host_.coordinateSystem().lengthUnit());
}

void ViewsTool::setProjection(std::optional<OrthoView> view) {
  CameraRig& rig = host_.rig();
  Camera camera = rig.camera();
  panel_.projection = view ? 1 + int(*view) : 0;
  if (!view) {
    camera.projection = Projection::Perspective;
    rig.setCamera(camera);
    goHome();
    return;
  }
  const Box3d bounds = host_.scene().parts().holdsFiles() || host_.scene().loading()
                           ? host_.scene().shownBounds()
                           : Box3d{glm::dvec3(-2.0), glm::dvec3(2.0)};  // the cylinders
  rig.jumpTo(frameOrtho(*view, bounds, host_.aspect(), std::nullopt, camera));
  rig.setFollowsScene(false);
  std::fprintf(stderr, "pcv: %s view (orthographic)\n", orthoViewName(*view));
}

void ViewsTool::onSceneShown() {
  if (host_.scene().parts().key() != sceneKey_) refreshBookmarks();
  // A window started in an orthographic view (pcv view --ortho) shows it in the panel, and Home
  // frames it again.
  const Camera& camera = host_.rig().camera();
  if (panel_.projection == 0 && camera.orthographic()) {
    for (const OrthoView view : {OrthoView::Plan, OrthoView::Front, OrthoView::Side}) {
      Camera turned = camera;
      turnToOrthoView(turned, view);
      if (turned.yawRadians == camera.yawRadians && turned.pitchRadians == camera.pitchRadians) {
        panel_.projection = 1 + int(view);
      }
    }
  }
}

void ViewsTool::goHome() {
  SceneModel& scene = host_.scene();
  CameraRig& rig = host_.rig();
  if (panel_.projection != 0 && rig.camera().orthographic()) {
    setProjection(OrthoView(panel_.projection - 1));  // the same orthographic view, framed again
    return;
  }
  if (scene.parts().holdsFiles() || scene.loading()) {
    rig.frame(
        scene.shownBounds(), host_.aspect(),
        scene.loading() ? std::vector<glm::dvec3>() : framingSamples(scene.parts().inCore.cloud()),
        host_.sidebarShare());
    rig.setFollowsScene(true);
  } else {
    // The cylinders: the seed's start, whichever axis is up.
    Camera seed;
    seed.upAxis = rig.camera().upAxis;
    rig.jumpTo(seed);
  }
  std::fprintf(stderr, "pcv: home\n");
}

void ViewsTool::setUpAxis(UpAxis up) {
  Camera camera = host_.rig().camera();
  camera.upAxis = up;
  host_.rig().setCamera(camera);
  std::fprintf(stderr, "pcv: %s is up\n", up == UpAxis::Z ? "z" : "y");
  goHome();  // yaw and pitch mean something else now: frame the scene again
}

void ViewsTool::copyView() {
  panel_.copiedView = renderCommand(host_.describeView());
  host_.setClipboard(panel_.copiedView);
  // On stdout, alone on its line, so it can be piped; the note goes with the other messages.
  std::printf("%s\n", panel_.copiedView.c_str());
  std::fflush(stdout);
  std::fprintf(stderr, "pcv: copied the view to the clipboard\n");
}

BookmarkStore* ViewsTool::bookmarkStore() {
  if (store_) return &*store_;
  try {
    store_.emplace(defaultBookmarksPath());
    panel_.message.clear();
  } catch (const Error& error) {
    panel_.message = error.what();
    std::fprintf(stderr, "pcv: error: %s\n", error.what());
    return nullptr;
  }
  return &*store_;
}

void ViewsTool::refreshBookmarks() {
  sceneKey_ = host_.scene().parts().key();
  BookmarkStore* store = bookmarkStore();
  panel_.bookmarks = store ? store->bookmarks(*sceneKey_) : std::vector<Bookmark>{};
}

void ViewsTool::saveBookmark(const std::string& name) {
  BookmarkStore* store = bookmarkStore();
  if (!store) return;
  try {
    store->add(sceneKey_.value_or(""), Bookmark{.name = name, .camera = host_.rig().camera()});
    std::fprintf(stderr, "pcv: saved bookmark '%s' to %s\n", name.c_str(), store->path().c_str());
  } catch (const Error& error) {
    panel_.message = error.what();
    std::fprintf(stderr, "pcv: error: %s\n", error.what());
  }
  refreshBookmarks();
}

void ViewsTool::restoreBookmark(const std::string& name) {
  for (const Bookmark& bookmark : panel_.bookmarks) {
    if (bookmark.name != name) continue;
    host_.rig().jumpTo(bookmark.camera);
    std::fprintf(stderr, "pcv: went to bookmark '%s'\n", name.c_str());
    return;
  }
  panel_.message = "no bookmark '" + name + "' for this scene";
  std::fprintf(stderr, "pcv: %s\n", panel_.message.c_str());
}

void ViewsTool::deleteBookmark(const std::string& name) {
  BookmarkStore* store = bookmarkStore();
  if (!store) return;
  try {
    store->remove(sceneKey_.value_or(""), name);
  } catch (const Error& error) {
    panel_.message = error.what();
  }
  refreshBookmarks();
}

}  // namespace pcv::app
