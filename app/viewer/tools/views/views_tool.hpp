/// @brief The Views tool, the sidebar's "Camera and views": the camera's mode and position, the
/// up axis, Home (frame the scene again), "Copy view" (C: the pcv render command of this view,
/// to the clipboard and stdout) and bookmarks of the scene shown (B saves one), kept across
/// sessions in the bookmarks file; the projection (perspective, or orthographic plan, front and
/// side views, with a scale bar). Script commands:
///   <seconds> bookmark_save <name> | bookmark_restore <name>
///   <seconds> view_projection perspective|plan|front|side
#pragma once

#include <optional>
#include <string>

#include "pcv/core/camera_framing.hpp"
#include "viewer/tools/views/views_section.hpp"
#include "viewer/tools/tool_host.hpp"
#include "viewer/tools/viewer_tool.hpp"
#include "viewer/tools/views/bookmarks.hpp"

namespace pcv::app {

class ViewsTool final : public ViewerTool {
 public:
  explicit ViewsTool(ToolHost& host) : host_(host) {}

  bool onKey(const KeyEvent& event) override;
  const char* sectionTitle() const override { return "Camera and views"; }
  bool sectionOpenByDefault() const override { return true; }
  void drawSection() override;
  void addScriptCommands(ScriptCommands& commands) override;
  void onSceneShown() override;
  void drawOverlay(const ScreenProjector& projector) override;

  /// Switches to perspective (empty) or an orthographic view framed on the scene.
  void setProjection(std::optional<OrthoView> view);

 private:
  void goHome();
  void setUpAxis(UpAxis up);
  void copyView();
  /// The store, opened at first use; null (and the reason in the section) when it cannot be.
  BookmarkStore* bookmarkStore();
  void refreshBookmarks();
  void saveBookmark(const std::string& name);
  void restoreBookmark(const std::string& name);
  void deleteBookmark(const std::string& name);

  ToolHost& host_;
  ViewsPanel panel_;
  std::optional<BookmarkStore> store_;
  std::optional<std::string> sceneKey_;  ///< the scene panel_.bookmarks belong to
};

}  // namespace pcv::app
