/// @brief The Views tool, the sidebar's "Camera and views": the camera's mode and position, the
/// up axis, Home (frame the scene again), "Copy view" (C: the pcv render command of this view,
/// to the clipboard and stdout) and bookmarks of the scene shown (B saves one), kept across
/// sessions in the bookmarks file. Script commands:
///   <seconds> bookmark_save <name> | bookmark_restore <name>
#pragma once

#include <optional>
#include <string>

#include "viewer/panels/tool_panels.hpp"
#include "viewer/tools/tool_host.hpp"
#include "viewer/tools/viewer_tool.hpp"
#include "viewer/views/bookmarks.hpp"

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
