/// @brief The viewer's ImGui windows, each a function over the state it shows and edits: the
/// Settings window (frame time, renderer, quality, camera), the Data window (files, loading,
/// colouring, picked point), the Legend and the Error window. The loop calls them once a frame.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "pcv/core/camera.hpp"
#include "pcv/core/stage_timings.hpp"
#include "pcv/raster/render_settings.hpp"
#include "viewer/camera_rig.hpp"
#include "viewer/scene_model.hpp"

namespace pcv::app {

/// What the Settings window shows without editing.
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

/// The Settings window's switches that belong to the window, not to rendering.
struct ViewerToggles {
  bool vsync = false;
  bool showImGuiDemo = false;
};

/// The Settings window. Returns the camera mode asked for when the user switches it.
std::optional<CameraMode> drawSettingsPanel(const ViewerStatus& status,
                                            const std::vector<RasterMethod>& methods,
                                            RenderSettings& settings, const CameraRig& rig,
                                            ViewerToggles& toggles);

/// The quality section of the Settings window (point size, EDL, HQ, background).
void drawQualityControls(RenderSettings& settings);

/// Files the Data window asks to open.
struct OpenRequest {
  std::string path;
  bool replace = true;  ///< Open replaces the scene; Add adds to it
};

/// The Data window: what is loaded, the load in progress, the Open field (`openPath` is its
/// text, `openOptions` what it reads: the scan of an E57 file), the colouring (applied to
/// `scene` directly) and the picked point.
std::optional<OpenRequest> drawDataPanel(SceneModel& scene, const Camera& camera,
                                         std::string& openPath, ReadOptions& openOptions,
                                         float uiScale);

/// The Legend window for the colouring in effect (nothing for the files' own colours).
void drawLegend(const SceneModel& scene);

/// The Error window while `errors` is not empty; Dismiss clears them.
void drawErrorWindow(std::vector<std::string>& errors);

}  // namespace pcv::app
