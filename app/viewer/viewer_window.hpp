/// @brief The viewer's window and frame loop: routes input (GLFW callbacks, dropped files and the
/// script) to the camera rig, the tools and the scene model, renders through the frame
/// presenter, draws the panels and the tools' overlay, and carries out what the panels ask for.
/// Private to app/viewer; its methods live in viewer.cpp (the loop), viewer_input.cpp (input)
/// and viewer_views.cpp (views, bookmarks, measurements' export).
#pragma once

#include <array>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pcv/gl/frame_presenter.hpp"
#include "pcv/gl/glfw_window.hpp"
#include "pcv/raster/renderer.hpp"
#include "viewer/camera_rig.hpp"
#include "viewer/input_script.hpp"
#include "viewer/motion_keys.hpp"
#include "viewer/panels/panels.hpp"
#include "pcv/session/scene_model.hpp"
#include "viewer/viewer.hpp"

namespace pcv::app {

/// Frame time smoothed over roughly the last 20 frames, for a readable panel.
struct FrameStats {
  double smoothedFrameMs = 0.0;
  void add(double frameMs) {
    smoothedFrameMs = smoothedFrameMs == 0.0 ? frameMs : 0.95 * smoothedFrameMs + 0.05 * frameMs;
  }
  double fps() const { return smoothedFrameMs > 0.0 ? 1000.0 / smoothedFrameMs : 0.0; }
};

/// Keys and buttons held, the cursor, the last click (for double-clicks) and where the buttons
/// went down (a press and release without a drag is a click).
struct InputState {
  static constexpr int kKeyCount = 512;  // > GLFW_KEY_LAST
  std::array<bool, kKeyCount> keyHeld{};
  std::array<bool, 8> buttonHeld{};
  std::optional<glm::dvec2> cursorPx;
  double lastClickSeconds = -1.0;
  glm::dvec2 lastClickPx{0.0};
  std::array<std::optional<glm::dvec2>, 8> pressedAtPx;  ///< per button, until it is dragged
  bool releaseIsNoClick = false;  ///< the press was a double-click: its release adds nothing
  MotionKeys motionKeys() const;
  bool shiftHeld() const;
};

class ViewerWindow {
 public:
  explicit ViewerWindow(const ViewerOptions& options);
  ~ViewerWindow();
  void run();

 private:
  // Input, from GLFW callbacks and from the script alike (viewer_input.cpp).
  void onKey(int key, int action);
  void onToolKey(int key);
  void onCursor(double xPx, double yPx);
  void onMouseButton(int button, int action);
  void onScroll(double notches);
  void onDoubleClick(double xPx, double yPx);
  void onClick(int button, double xPx, double yPx);
  void onDrop(const std::vector<std::string>& paths);
  void applyScript(double nowSeconds);
  void applyScriptEvent(const ScriptEvent& event);
  void applyToolEvent(const ScriptEvent& event);
  void installCallbacks();
  /// The world position of the point drawn under window position (x, y), from the renderer.
  std::optional<glm::dvec3> pickAt(double xPx, double yPx);
  void addMeasurePoint(double xPx, double yPx);
  void finishMeasurement();
  void reportLastMeasurement() const;

  // Views, bookmarks and exports (viewer_views.cpp).
  void carryOut(const PanelRequests& requests);
  void goHome();
  void setUpAxis(UpAxis up);
  void copyView();
  void refreshBookmarks();
  BookmarkStore* bookmarkStore();
  void saveBookmark(const std::string& name);
  void restoreBookmark(const std::string& name);
  void deleteBookmark(const std::string& name);
  void exportMeasures(const std::string& path);
  void toggleClipBox();
  void reportClipBox() const;

  // The loop (viewer.cpp).
  void setMouselook(bool on);
  void setMode(CameraMode mode);
  void openFiles(const std::vector<std::string>& files, bool replace);
  void takeSceneChanges();
  /// The settings a frame draws with: clipping draws with the compact method.
  RenderSettings frameSettings() const;
  ScreenProjector projector() const;
  void renderFrame(int widthPx, int heightPx);
  void drawPanels();
  void takePendingShots(int widthPx, int heightPx);
  std::filesystem::path nextScreenshotPath() const;
  float aspect() const;

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

  InputState input_;
  std::vector<ScriptEvent> script_;
  size_t nextScriptEvent_ = 0;
  std::vector<std::filesystem::path> pendingScreenshots_;
  std::vector<std::filesystem::path> pendingWindowShots_;
  std::vector<std::filesystem::path> pendingUiShots_;  // after the panels are drawn
  std::string lastScreenshot_;
  std::vector<std::string> errors_;  // shown in the error window until dismissed
  std::string openPath_;             // the Data section's Open field
  ReadOptions readOptions_;          // what Open reads of a file (--scan; the panel's Scan)

  // The tools.
  MeasureTool measure_;
  std::string exportPath_ = "pcv-measurements.csv";
  ClipPanel clipPanel_;
  ClipHandle hoveredHandle_ = ClipHandle::None;
  ClipHandle draggedHandle_ = ClipHandle::None;
  ViewsPanel views_;
  std::optional<BookmarkStore> bookmarks_;  // opened at first use
  std::string bookmarkScene_;               // the scene views_.bookmarks belong to
  SidebarState sidebar_;
  float sidebarWidthPx_ = 0.0f;

  bool quit_ = false;
  int framebufferWidthPx_ = 0;
  int framebufferHeightPx_ = 0;
  double nowSeconds_ = 0.0;
  float uiScale_ = 1.0f;
};

}  // namespace pcv::app
