/// @brief The viewer's ImGui panels, each a function over the state it shows and edits: one
/// sidebar docked at the left edge (collapsible, full height, so nothing overlaps at any window
/// size) with sections for the renderer, the camera and views, the data, Measure and Clip; the
/// Legend at the top right; the Error window; and the overlay the tools draw over the scene.
/// The loop calls them once a frame and carries out what they ask for (PanelRequests).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "pcv/core/camera.hpp"
#include "pcv/core/stage_timings.hpp"
#include "pcv/raster/render_settings.hpp"
#include "viewer/camera_rig.hpp"
#include "pcv/session/scene_model.hpp"
#include "viewer/tools/clip_handles.hpp"
#include "viewer/tools/measure_tool.hpp"
#include "viewer/tools/screen_projector.hpp"
#include "viewer/views/bookmarks.hpp"

namespace pcv::app {

/// What the sidebar shows without editing.
struct ViewerStatus {
  double frameMs = 0.0;  ///< smoothed
  double fps = 0.0;
  StageTimings stages;  ///< the last frame's
  uint64_t points = 0;  ///< drawn
  std::string backend;
  std::string backendNote;      ///< why this backend, when it is a fallback
  std::string interop;          ///< the interop path in use
  std::string interopFallback;  ///< why the requested path was not used
  std::string lastScreenshot;
};

/// The sidebar's switches that belong to the window, not to rendering.
struct ViewerToggles {
  bool vsync = false;
  bool showImGuiDemo = false;
};

/// Files the Data section asks to open.
struct OpenRequest {
  std::string path;
  bool replace = true;  ///< Open replaces the scene; Add adds to it
};

/// The Camera section's view tools: bookmarks of the scene shown and the last copied view.
struct ViewsPanel {
  std::vector<Bookmark> bookmarks;  ///< of the scene shown, as saved
  std::string bookmarkName;         ///< the name field
  std::string copiedView;           ///< the last "Copy view" command
  std::string message;              ///< a bookmark file that could not be read or written
};

/// How the Clip section's slab is oriented.
enum class SlabOrientation { AlongX, AlongY, AlongZ, AlongView };

/// The Clip section's own state.
struct ClipPanel {
  bool showHandles = true;  ///< draw the box's handles and let them be dragged
  SlabOrientation slabOrientation = SlabOrientation::AlongView;
};

/// How a tool's section is brought into view when its tool turns on: scrolled to the top of the
/// sidebar for a few frames (the sidebar's height is only known a frame after it opened).
struct SectionScroll {
  bool forcedOpen = false;  ///< last frame
  int framesLeft = 0;       ///< frames to scroll to it yet
};

/// The sidebar's memory between frames.
struct SidebarState {
  SectionScroll measure;
  SectionScroll clip;
};

/// What the user asked for in the panels this frame; the window carries it out.
struct PanelRequests {
  std::optional<CameraMode> mode;
  std::optional<OpenRequest> open;
  bool home = false;                          ///< frame the scene again
  bool copyView = false;                      ///< the pcv render command to the clipboard
  std::optional<UpAxis> upAxis;               ///< switch the up axis (and frame again)
  std::optional<std::string> saveBookmark;    ///< under this name
  std::optional<Bookmark> restoreBookmark;    ///< go to this view
  std::optional<std::string> deleteBookmark;  ///< by name
  std::optional<std::string> exportMeasures;  ///< to this path (.json, else CSV)
};

/// Everything the sidebar shows and edits, for one frame.
struct PanelContext {
  const ViewerStatus& status;
  const std::vector<RasterMethod>& methods;
  RenderSettings& settings;
  const CameraRig& rig;
  ViewerToggles& toggles;
  SceneModel& scene;
  MeasureTool& measure;
  ViewsPanel& views;
  ClipPanel& clip;
  SidebarState& sidebar;
  std::string& openPath;     ///< the Open field
  ReadOptions& openOptions;  ///< what Open reads of a file (the scan of an E57 file)
  std::string& exportPath;   ///< the Measure section's export field
  float uiScale;             ///< HiDPI content scale (1 on ordinary screens)
};

/// The sidebar: its sections in one window docked at the left edge. Returns its width in
/// window pixels (0 while collapsed), so other windows keep clear of it.
float drawSidebar(PanelContext& context, PanelRequests& requests);

/// A text field bound to a std::string (ImGui 1.86 edits char buffers; paths fit its 4 KiB);
/// true when Enter was pressed in it.
bool inputString(const char* label, std::string& text);

// The sidebar's sections, each in its own file.
void drawStatusSection(const ViewerStatus& status);
void drawRenderingSection(const std::vector<RasterMethod>& methods, RenderSettings& settings,
                          ViewerToggles& toggles);
void drawQualityControls(RenderSettings& settings);
void drawCameraSection(const CameraRig& rig, ViewsPanel& views, PanelRequests& requests);
void drawDataSection(PanelContext& context, PanelRequests& requests);
void drawStreamingSection(StreamedScene& streamed);
void drawMeasureSection(MeasureTool& measure, std::string& exportPath, PanelRequests& requests);
void drawClipSection(ClipSettings& clip, ClipPanel& panel, const SceneModel& scene,
                     const Camera& camera);

/// The Legend window for the colouring in effect (nothing for the files' own colours), at the
/// top right.
void drawLegend(const SceneModel& scene);

/// The Error window while `errors` is not empty; Dismiss clears them. Centred in the part of
/// the window right of the sidebar.
void drawErrorWindow(std::vector<std::string>& errors, float sidebarWidth);

/// The tools' drawing over the scene: measurements with their labels, the clip box with its
/// handles (`hovered` highlighted), and while the scene is prepared the line that says so.
void drawToolOverlay(const MeasureTool& measure, const ClipSettings& clip,
                     const ClipPanel& clipPanel, const ScreenProjector& projector,
                     ClipHandle hovered, const std::string& notice);

}  // namespace pcv::app
