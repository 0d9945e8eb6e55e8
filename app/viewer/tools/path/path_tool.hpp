/// @brief The Path tool, the sidebar's "Camera path": keyframes from the current view or the
/// scene's bookmarks, played as a smooth flight (pcv/core/camera_path.hpp) at a speed, once or
/// in a loop, and saved or loaded as the JSON file `pcv render --path` reads. Script commands:
///   <seconds> path_add                 the current view as the last key
///   <seconds> path_from_bookmarks      the scene's bookmarks as the keys
///   <seconds> path_clear
///   <seconds> path_play | path_pause
///   <seconds> path_loop on|off
///   <seconds> path_speed <factor>
///   <seconds> path_seek <seconds>      jump along the path (the camera follows)
///   <seconds> path_save <file> | path_load <file>
#pragma once

#include "viewer/tools/path/path_section.hpp"
#include "viewer/tools/path/path_player.hpp"
#include "viewer/tools/tool_host.hpp"
#include "viewer/tools/viewer_tool.hpp"

namespace pcv::app {

class PathTool final : public ViewerTool {
 public:
  explicit PathTool(ToolHost& host) : host_(host) {}

  const char* sectionTitle() const override { return "Camera path"; }
  /// Playing opens the section (and scrolls to it): its Pause button is then at hand.
  bool inUse() const override { return player_.playing(); }
  void drawSection() override;
  void drawOverlay(const ScreenProjector& projector) override;
  void addScriptCommands(ScriptCommands& commands) override;
  void onFrame(double nowSeconds) override;

 private:
  void addView();
  void fromBookmarks();
  void save(const std::string& file);
  void load(const std::string& file);
  void setPlaying(bool playing);
  /// Puts the camera on the player's pose (its field of view, planes and up axis kept).
  void showPose();
  /// Says `message` in the section and on stderr.
  void say(const std::string& message);

  ToolHost& host_;
  PathPlayer player_;
  PathPanel panel_;
  std::optional<double> lastFrameSeconds_;
};

}  // namespace pcv::app
