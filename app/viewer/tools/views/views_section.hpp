/// @brief The Views tool's ImGui drawing: the "Camera and views" section with the state it keeps
/// between frames (bookmarks, the projection chosen) and the scale bar over plan views. The tool
/// calls it and carries out what it asks for; nothing here acts on the window.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "pcv/core/camera.hpp"
#include "pcv/core/length_unit.hpp"
#include "camera/camera_rig.hpp"
#include "viewer/tools/screen_projector.hpp"
#include "viewer/tools/views/bookmarks.hpp"

namespace pcv::app {

/// The Views section's own state: bookmarks of the scene shown and the last copied view.
struct ViewsPanel {
  std::vector<Bookmark> bookmarks;  ///< of the scene shown, as saved
  std::string bookmarkName;         ///< the name field
  std::string copiedView;           ///< the last "Copy view" command
  std::string message;              ///< a bookmark file that could not be read or written
  /// The projection chosen: 0 perspective, 1 + OrthoView (plan, front, side).
  int projection = 0;
};

/// What the Views section was asked for this frame.
struct ViewsRequests {
  std::optional<CameraMode> mode;
  bool home = false;                           ///< frame the scene again
  bool copyView = false;                       ///< the pcv render command to the clipboard
  std::optional<UpAxis> upAxis;                ///< switch the up axis (and frame again)
  std::optional<std::string> saveBookmark;     ///< under this name
  std::optional<std::string> restoreBookmark;  ///< go to this view, by name
  std::optional<std::string> deleteBookmark;   ///< by name
  std::optional<int> projection;               ///< switch: 0 perspective, 1 + OrthoView
};

/// A scale bar at the bottom left of the view (plan views: world units per pixel are the same
/// everywhere).
void drawScaleBarOverlay(const ScreenProjector& projector, double windowWidth,
                         const LengthUnit& unit);

/// The "Camera and views" section: mode, position, up axis, Home, Copy view, bookmarks.
void drawCameraSection(const CameraRig& rig, ViewsPanel& views, ViewsRequests& requests);

}  // namespace pcv::app
