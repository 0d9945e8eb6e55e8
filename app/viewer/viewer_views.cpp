// The viewer's views and the tools' outputs: Home, the up axis, "Copy view" (the pcv render
// command of the view, to the clipboard and stdout), bookmarks per scene, the clip box toggle
// and the measurements' export; and what the panels ask for, carried out.
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "pcv/core/error.hpp"
#include "render_arguments.hpp"
#include "viewer/viewer_window.hpp"

namespace pcv::app {

void ViewerWindow::carryOut(const PanelRequests& requests) {
  if (requests.mode) setMode(*requests.mode);
  if (requests.open) openFiles({requests.open->path}, requests.open->replace);
  if (requests.home) goHome();
  if (requests.copyView) copyView();
  if (requests.upAxis) setUpAxis(*requests.upAxis);
  if (requests.saveBookmark) saveBookmark(*requests.saveBookmark);
  if (requests.restoreBookmark) restoreBookmark(requests.restoreBookmark->name);
  if (requests.deleteBookmark) deleteBookmark(*requests.deleteBookmark);
  if (requests.exportMeasures) exportMeasures(*requests.exportMeasures);
}

void ViewerWindow::goHome() {
  const Box3d shown = scene_->shownBounds();
  if (scene_->hasCloud() || scene_->loading()) {
    rig_.frame(shown, aspect());
    rig_.setFollowsScene(true);
  } else {
    // The cylinders: the seed's start, whichever axis is up.
    Camera seed;
    seed.upAxis = rig_.camera().upAxis;
    rig_.jumpTo(seed);
  }
  std::fprintf(stderr, "pcv: home\n");
}

void ViewerWindow::setUpAxis(UpAxis up) {
  Camera camera = rig_.camera();
  camera.upAxis = up;
  rig_.setCamera(camera);
  std::fprintf(stderr, "pcv: %s is up\n", up == UpAxis::Z ? "z" : "y");
  goHome();  // yaw and pitch mean something else now: frame the scene again
}

void ViewerWindow::copyView() {
  ViewDescription view{.camera = rig_.camera(),
                       .widthPx = framebufferWidthPx_,
                       .heightPx = framebufferHeightPx_,
                       .settings = frameSettings(),
                       .coloring = scene_->coloring(),
                       .read = readOptions_};
  if (scene_->hasCloud()) {
    // Absolute: the command works from any folder.
    for (const std::string& file : scene_->files()) {
      view.files.push_back(std::filesystem::absolute(file).lexically_normal().string());
    }
  } else {
    view.demoPoints = scene_->demo().pointCount;
    view.demoSeed = scene_->demo().seed;
  }
  views_.copiedView = renderCommand(view);
  glfwSetClipboardString(window_.handle(), views_.copiedView.c_str());
  // On stdout, alone on its line, so it can be piped; the note goes with the other messages.
  std::printf("%s\n", views_.copiedView.c_str());
  std::fflush(stdout);
  std::fprintf(stderr, "pcv: copied the view to the clipboard\n");
}

BookmarkStore* ViewerWindow::bookmarkStore() {
  if (bookmarks_) return &*bookmarks_;
  try {
    bookmarks_.emplace(defaultBookmarksPath());
    views_.message.clear();
  } catch (const Error& error) {
    views_.message = error.what();
    std::fprintf(stderr, "pcv: error: %s\n", error.what());
    return nullptr;
  }
  return &*bookmarks_;
}

void ViewerWindow::refreshBookmarks() {
  bookmarkScene_ = scene_->sceneKey();
  BookmarkStore* store = bookmarkStore();
  views_.bookmarks = store ? store->bookmarks(bookmarkScene_) : std::vector<Bookmark>{};
}

void ViewerWindow::saveBookmark(const std::string& name) {
  BookmarkStore* store = bookmarkStore();
  if (!store) return;
  try {
    store->add(bookmarkScene_, Bookmark{.name = name, .camera = rig_.camera()});
    std::fprintf(stderr, "pcv: saved bookmark '%s' to %s\n", name.c_str(), store->path().c_str());
  } catch (const Error& error) {
    views_.message = error.what();
    std::fprintf(stderr, "pcv: error: %s\n", error.what());
  }
  refreshBookmarks();
}

void ViewerWindow::restoreBookmark(const std::string& name) {
  for (const Bookmark& bookmark : views_.bookmarks) {
    if (bookmark.name != name) continue;
    rig_.jumpTo(bookmark.camera);
    std::fprintf(stderr, "pcv: went to bookmark '%s'\n", name.c_str());
    return;
  }
  views_.message = "no bookmark '" + name + "' for this scene";
  std::fprintf(stderr, "pcv: %s\n", views_.message.c_str());
}

void ViewerWindow::deleteBookmark(const std::string& name) {
  BookmarkStore* store = bookmarkStore();
  if (!store) return;
  try {
    store->remove(bookmarkScene_, name);
  } catch (const Error& error) {
    views_.message = error.what();
  }
  refreshBookmarks();
}

void ViewerWindow::exportMeasures(const std::string& path) {
  const bool json = path.size() >= 5 && path.substr(path.size() - 5) == ".json";
  std::ofstream out(path);
  out << (json ? measurementsJson(measure_.finished()) : measurementsCsv(measure_.finished()));
  if (!out) {
    errors_.push_back("cannot write the measurements to '" + path + "'");
    return;
  }
  std::fprintf(stderr, "pcv: wrote %zu measurements to %s\n", measure_.finished().size(),
               path.c_str());
}

void ViewerWindow::toggleClipBox() {
  if (settings_.clip.box) {
    settings_.clip.box.reset();
    std::fprintf(stderr, "pcv: clip box off\n");
    return;
  }
  // The middle half of what is shown on every axis: visibly cut, ready to be dragged.
  Box3d shown = scene_->shownBounds();
  if (shown.empty()) shown = Box3d{glm::dvec3(-1.0), glm::dvec3(1.0)};
  const glm::dvec3 quarter = 0.25 * shown.size();
  settings_.clip.box = ClipBox{shown.min + quarter, shown.max - quarter};
  reportClipBox();
}

void ViewerWindow::reportClipBox() const {
  if (!settings_.clip.box) return;
  const ClipBox& box = *settings_.clip.box;
  std::fprintf(stderr, "pcv: clip box (%.6f, %.6f, %.6f) to (%.6f, %.6f, %.6f)\n", box.min.x,
               box.min.y, box.min.z, box.max.x, box.max.y, box.max.z);
}

}  // namespace pcv::app
