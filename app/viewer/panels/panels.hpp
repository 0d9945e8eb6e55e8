/// @brief The viewer's ImGui panels, each a function over the state it shows and edits: one
/// sidebar docked at the left edge (collapsible, full height, so nothing overlaps at any window
/// size) with sections for the renderer, each tool's (drawn by the tool, from its folder under
/// tools/), the data and streaming;
/// the Legend at the top right; the Error window; and the notice while the scene is prepared.
/// The loop calls them once a frame and carries out what they ask for (PanelRequests).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "pcv/core/camera.hpp"
#include "pcv/core/stage_timings.hpp"
#include "pcv/raster/render_settings.hpp"
#include "pcv/session/scene_model.hpp"
#include "viewer/tools/text_field.hpp"
#include "viewer/tools/tool_list.hpp"

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

/// What the user asked for in the panels this frame; the window carries it out.
struct PanelRequests {
  std::optional<OpenRequest> open;
  std::optional<size_t> frameTile;  ///< a tile of the dataset clicked in the Data section
};

/// What the Data section's list of tiles keeps between frames: the tiles' state counts, taken
/// a few times a second (each takes a look at every node of the forest).
struct DatasetListState {
  const void* dataset = nullptr;  ///< the tile set counted (another one: count again)
  double countedAtSeconds = -1.0;
  std::vector<size_t> stateCounts;  ///< tiles by TileState
};

/// Everything the sidebar shows and edits, for one frame.
struct PanelContext {
  const ViewerStatus& status;
  const std::vector<RasterMethod>& methods;
  RenderSettings& settings;
  ViewerToggles& toggles;
  SceneModel& scene;
  const std::vector<std::string>& fileWarnings;  ///< of the files read so far
  std::string& openPath;          ///< the Open field
  ReadOptions& openOptions;       ///< what Open reads of a file (the scan of an E57 file)
  DatasetListState& datasetList;  ///< the Data section's tile list between frames
};

/// The sidebar: its sections in one window docked at the left edge, the tools' after the
/// renderer's, in the tools' order. Returns its width in window pixels (0 while collapsed), so
/// other windows keep clear of it.
float drawSidebar(PanelContext& context, ToolList& tools, PanelRequests& requests);

// The sidebar's sections, each in its own file.
void drawStatusSection(const ViewerStatus& status);
void drawRenderingSection(const std::vector<RasterMethod>& methods, RenderSettings& settings,
                          ViewerToggles& toggles);
void drawQualityControls(RenderSettings& settings);
void drawDataSection(PanelContext& context, PanelRequests& requests);
/// The Data section's part for a streamed dataset (its tiles, their states, the boxes' switch).
void drawDatasetList(SceneModel& scene, const StreamPart& streamed, DatasetListState& list,
                     PanelRequests& requests);
void drawStreamingSection(StreamPart& streamed);

/// The Legend window for the colouring in effect (nothing for the files' own colours), at the
/// top right.
void drawLegend(const SceneModel& scene);

/// The Error window while `errors` is not empty; Dismiss clears them. Centred in the part of
/// the window right of the sidebar.
void drawErrorWindow(std::vector<std::string>& errors, float sidebarWidth);

/// While the scene is prepared, the line that says so, in the middle of the window.
void drawNotice(const std::string& notice);

}  // namespace pcv::app
