/// @brief The viewer's window and frame loop: routes input (GLFW callbacks and the script) to
/// the camera rig and the scene model, renders through the frame presenter, draws the panels and
/// takes screenshots. Private to app/viewer.
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
#include "viewer/scene_model.hpp"
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

/// Keys and buttons held, the cursor, and the last click (for double-clicks).
struct InputState {
  static constexpr int kKeyCount = 512;  // > GLFW_KEY_LAST
  std::array<bool, kKeyCount> keyHeld{};
  std::array<bool, 8> buttonHeld{};
  std::optional<glm::dvec2> cursorPx;
  double lastClickSeconds = -1.0;
  glm::dvec2 lastClickPx{0.0};
  MotionKeys motionKeys() const;
};

class ViewerWindow {
 public:
  explicit ViewerWindow(const ViewerOptions& options);
  ~ViewerWindow();
  void run();

 private:
  // Input, from GLFW callbacks and from the script alike.
  void onKey(int key, int action);
  void onCursor(double xPx, double yPx);
  void onMouseButton(int button, int action);
  void onScroll(double notches);
  void onDoubleClick(double xPx, double yPx);
  void applyScript(double nowSeconds);
  void applyScriptEvent(const ScriptEvent& event);

  void setMouselook(bool on);
  void setMode(CameraMode mode);
  void openFiles(const std::vector<std::string>& files, bool replace);
  void takeSceneChanges();
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
  std::string lastScreenshot_;
  std::vector<std::string> errors_;  // shown in the error window until dismissed
  std::string openPath_;             // the Data panel's Open field
  ReadOptions readOptions_;          // what Open reads of a file (--scan; the panel's Scan)

  bool quit_ = false;
  int framebufferWidthPx_ = 0;
  int framebufferHeightPx_ = 0;
  double nowSeconds_ = 0.0;
  float uiScale_ = 1.0f;
};

}  // namespace pcv::app
