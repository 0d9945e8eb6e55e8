/// @brief The Path tool's ImGui drawing: its sidebar section (keys, playback, the file) and the
/// path drawn over the scene. Nothing here acts on the window: the section says what was asked.
#pragma once

#include <optional>
#include <string>

#include "viewer/tools/path/path_player.hpp"
#include "viewer/tools/screen_projector.hpp"

namespace pcv::app {

/// The section's own state between frames.
struct PathPanel {
  std::string file = "path.json";  ///< the Save/Load field
  std::string message;             ///< the last load or save, or why it failed
  bool showPath = true;            ///< draw the path over the scene
};

/// What the section was asked for this frame.
struct PathRequests {
  bool addView = false;        ///< the current view as a key, at the end
  bool fromBookmarks = false;  ///< the scene's bookmarks as the keys, in their order
  bool clear = false;
  std::optional<size_t> goToKey;  ///< put the camera on this key
  std::optional<size_t> removeKey;
  std::optional<bool> play;  ///< play (true) or pause (false)
  std::optional<bool> loop;
  std::optional<double> speed;
  std::optional<double> seek;  ///< seconds since the path's start
  bool save = false;           ///< to panel.file
  bool load = false;           ///< from panel.file
};

void drawPathSection(const PathPlayer& player, PathPanel& panel, PathRequests& requests);
/// The path as a line through its keys (numbered dots), over the scene.
void drawPathOverlay(const PathPlayer& player, const ScreenProjector& projector);

}  // namespace pcv::app
