/// @brief The tools' ImGui drawing: the sidebar sections of Measure, Clip and Views with the
/// state each keeps between frames, and what Measure and Clip draw over the scene. Each tool
/// calls its own; nothing here acts on the window.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "pcv/core/camera.hpp"
#include "pcv/raster/clip_settings.hpp"
#include "viewer/camera_rig.hpp"
#include "pcv/session/scene_model.hpp"
#include "viewer/tools/clip_handles.hpp"
#include "viewer/tools/measure_state.hpp"
#include "viewer/tools/screen_projector.hpp"
#include "viewer/views/bookmarks.hpp"

namespace pcv::app {

/// The Measure section: the kind, the points in progress, the list (each with Delete) and the
/// export field. Returns the path to export to when Export (or Enter in the field) was pressed.
std::optional<std::string> drawMeasureSection(MeasureState& measure, std::string& exportPath,
                                              const LengthUnit& unit);
/// The measurements (finished and in progress) with a label in world units beside each segment.
void drawMeasureOverlay(const MeasureState& measure, const ScreenProjector& projector,
                        const LengthUnit& unit);

/// How the Clip section's slab is oriented.
enum class SlabOrientation { AlongX, AlongY, AlongZ, AlongView };

/// The Clip section's own state.
struct ClipPanel {
  bool showHandles = true;  ///< draw the box's handles and let them be dragged
  SlabOrientation slabOrientation = SlabOrientation::AlongView;
};

/// The Clip section: a box (typed corners, fitted to the scene) and a slab, edited in `clip`.
void drawClipSection(ClipSettings& clip, ClipPanel& panel, const SceneModel& scene,
                     const Camera& camera);
/// The clip box's edges and its handles (`hovered` highlighted).
void drawClipOverlay(const ClipSettings& clip, const ClipPanel& panel,
                     const ScreenProjector& projector, ClipHandle hovered);

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
