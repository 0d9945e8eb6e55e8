/// @brief The viewer's window and frame loop: the core (GL context, renderer, frame presenter,
/// scene model, camera rig) and the tools (ViewerTool plug-ins) it lends itself to. Input (GLFW
/// callbacks, dropped files and the script) goes through the input router to the tools, then
/// the camera; each frame renders, then draws the panels, the tools' sections and overlays.
/// Private to app/viewer; its methods live in viewer.cpp (the loop), viewer_input.cpp (input
/// and the window's script commands) and viewer_host.cpp (what the tools are lent).
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pcv/gl/frame_presenter.hpp"
#include "pcv/gl/glfw_window.hpp"
#include "pcv/raster/renderer.hpp"
#include "camera/camera_rig.hpp"
#include "viewer/input_router.hpp"
#include "viewer/input/input_script.hpp"
#include "viewer/panels/panels.hpp"
#include "pcv/session/scene_model.hpp"
#include "viewer/tools/tool_host.hpp"
#include "viewer/tools/tool_list.hpp"
#include "viewer/viewer.hpp"
#include "viewer/window_commands.hpp"

namespace pcv::app {

/// Frame time smoothed over roughly the last 20 frames, for a readable panel.
struct FrameStats {
  double smoothedFrameMs = 0.0;
  void add(double frameMs) {
    smoothedFrameMs = smoothedFrameMs == 0.0 ? frameMs : 0.95 * smoothedFrameMs + 0.05 * frameMs;
  }
  double fps() const { return smoothedFrameMs > 0.0 ? 1000.0 / smoothedFrameMs : 0.0; }
};

/// Pictures asked for, each taken where the frame has it.
struct PendingShots {
  std::vector<std::filesystem::path> scene;   ///< the rendered scene (F12, screenshot)
  std::vector<std::filesystem::path> window;  ///< the back buffer before the panels
  std::vector<std::filesystem::path> ui;      ///< after the panels are drawn
  std::string lastScene;  ///< where the last screenshot went (or why not), for the panel
};

/// What one Escape did: cancelled a tool's action in progress, or switched mouselook.
struct EscapeRecord {
  std::string cancelledTool;  ///< the section title of the tool that cancelled; empty: none did
  bool mouselook = false;     ///< mouselook after it
};

class ViewerWindow final : private ToolHost, private ScriptedWindow {
 public:
  explicit ViewerWindow(const ViewerOptions& options);
  ~ViewerWindow() override;
  void run();

 private:
  // What the tools are lent (viewer_host.cpp).
  CameraRig& rig() override { return rig_; }
  void setMode(CameraMode mode) override;  // the script's `mode` too
  float aspect() const override;
  double sidebarShare() const override { return sidebarShare_; }
  SceneModel& scene() override { return *scene_; }
  RenderSettings& settings() override { return settings_; }
  ViewDescription describeView() const override;
  ScreenProjector projector() const override;
  std::optional<glm::dvec3> pickAt(glm::dvec2 windowPx) override;
  float uiScale() const override { return uiScale_; }
  const CoordinateSystem& coordinateSystem() const override { return crs_; }
  std::optional<ProfileLineSelection>& profileLine() override { return profileLine_; }
  void showError(const std::string& message) override;
  void setClipboard(const std::string& text) override;

  // Input, from GLFW's callbacks and the script's commands alike (viewer_input.cpp).
  void key(int key, int action) override;
  void cursor(glm::dvec2 atPx) override;
  void mouseButton(int button, int action) override;
  void scroll(double notches) override;
  void doubleClick(glm::dvec2 atPx) override;
  void resize(int widthPx, int heightPx) override;
  void shoot(ShotKind kind, const std::string& path) override;
  void openFile(const std::string& path, bool replace) override;
  void drop(const std::string& path) override;
  void closeStream() override;
  void removeFiles() override;
  void frameTile(size_t index) override;
  void showTileBoxes(bool shown) override;
  void collapseSidebar(bool collapsed) override { collapseSidebar_ = collapsed; }
  void color(const std::string& mode, const std::string& attribute) override;
  bool loading() const override;
  void quit() override { quit_ = true; }
  void installCallbacks();
  /// The window's commands and every tool's.
  ScriptPlayer loadScript(const std::string& path);
  void dropFiles(const std::vector<std::string>& paths);
  /// The camera's double click: orbit around the point under the cursor.
  void focusAt(glm::dvec2 atPx);
  void setMouselook(bool on);
  /// Escape: ends mouselook; else cancels the first tool's action in progress; with none,
  /// starts mouselook (the seed's toggle).
  void escape();
  glm::ivec2 windowSize() const;

  // The loop (viewer.cpp).
  void openFiles(const std::vector<std::string>& files, bool replace);
  void takeSceneChanges();
  /// The settings a frame draws with: clipping draws with the compact method.
  RenderSettings frameSettings() const;
  void renderFrame(int widthPx, int heightPx);
  void drawPanels();
  void takePendingShots(int widthPx, int heightPx);
  std::filesystem::path nextScreenshotPath() const;
  /// The run's record for --report (pcv view --report FILE): frames, camera, mouselook, the
  /// errors shown, what each Escape did, the clip box.
  void recordRun(uint64_t frames) const;

  ViewerOptions options_;
  GlfwWindow window_;  // first member: the GL context outlives every GL object below
  std::unique_ptr<Renderer> renderer_;
  std::unique_ptr<FramePresenter> presenter_;
  std::unique_ptr<SceneModel> scene_;  // before the renderer goes: it removes its sets
  CameraRig rig_;
  RenderSettings settings_;
  std::string backendNote_;  // why this backend (e.g. "no NVIDIA GPU"), shown in the panel
  StageTimings stageTimings_;
  FrameStats stats_;
  ViewerToggles toggles_;
  ToolList tools_;
  InputRouter input_;  // after the tools and the rig it routes to
  ScriptPlayer script_;
  PendingShots shots_;
  std::vector<std::string> errors_;    // shown in the error window until dismissed
  std::vector<std::string> errorLog_;  // every error shown, for the run's record
  std::vector<std::string> fileWarnings_;  // the files' warnings, for the Data section
  std::vector<EscapeRecord> escapes_;  // what each Escape did, for the run's record
  std::string openPath_;               // the Data section's Open field
  DatasetListState datasetList_;       // the Data section's tile list
  ReadOptions readOptions_;            // what Open reads of a file (--scan; the panel's Scan)
  float sidebarWidthPx_ = 0.0f;
  /// sidebarWidthPx_ / the window's width: framing fits the data into the rest.
  double sidebarShare_ = 0.0;
  /// Asked by a script (sidebar open|collapsed), done at the next frame.
  std::optional<bool> collapseSidebar_;
  bool quit_ = false;
  bool orthoEyePlaced_ = false;  // pcv view --ortho --eye ...: width and planes fitted once
  CoordinateSystem crs_;         // what the shown files declare: lengths' unit
  std::optional<ProfileLineSelection> profileLine_;  // drawn in the Profile window
  std::vector<std::string> crsFiles_;  // the files crs_ was read from
  glm::ivec2 framebufferPx_{0, 0};
  double nowSeconds_ = 0.0;
  float uiScale_ = 1.0f;
};

}  // namespace pcv::app
