/// @brief The viewer's state and frame loop, shared by viewer.cpp (loop, input) and
/// settings_panel.cpp (the ImGui window). Private to app/viewer.
#pragma once

#include <array>
#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pcv/core/camera.hpp"
#include "pcv/core/point.hpp"
#include "pcv/core/point_cloud.hpp"
#include "pcv/core/point_coloring.hpp"
#include "pcv/gl/frame_presenter.hpp"
#include "pcv/gl/glfw_window.hpp"
#include "pcv/raster/backend.hpp"
#include "viewer/cloud_loader.hpp"
#include "viewer/fly_controller.hpp"
#include "viewer/input_script.hpp"
#include "viewer/motion_keys.hpp"
#include "viewer/orbit_controller.hpp"
#include "viewer/viewer.hpp"

namespace pcv::app {

enum class CameraMode { Fly, Orbit };

/// Frame time smoothed over roughly the last 20 frames, for a readable panel.
struct FrameStats {
  double smoothedFrameMs = 0.0;
  void add(double frameMs) {
    smoothedFrameMs = smoothedFrameMs == 0.0 ? frameMs : 0.95 * smoothedFrameMs + 0.05 * frameMs;
  }
  double fps() const { return smoothedFrameMs > 0.0 ? 1000.0 / smoothedFrameMs : 0.0; }
};

class ViewerWindow {
 public:
  explicit ViewerWindow(const ViewerOptions& options);
  ~ViewerWindow();
  void run();

 private:
  static constexpr int kKeyCount = 512;  // > GLFW_KEY_LAST

  // Input, from GLFW callbacks and from the script alike.
  void onKey(int key, int action);
  void onCursor(double xPx, double yPx);
  void onMouseButton(int button, int action);
  void onScroll(double notches);
  void onDoubleClick(double xPx, double yPx);
  void applyScript(double nowSeconds);

  void setMouselook(bool on);
  void setMode(CameraMode mode);
  void updateCamera(double dtSeconds);
  MotionKeys motionKeys() const;
  void renderFrame(int widthPx, int heightPx);
  void takePendingShots(int widthPx, int heightPx);
  std::filesystem::path nextScreenshotPath() const;
  void drawSettingsPanel();  // settings_panel.cpp

  // Loaded files (scene_files.cpp): background loading, colouring, framing, picking.
  void openFiles(const std::vector<std::string>& files, bool replace);
  void takeLoadedFiles();
  void takeLoadPreview();
  void showPreview();
  void recolor();
  void frameCloud();
  void frameOn(const Box3d& worldBounds);
  void showError(const std::string& message);
  bool waitingForLoad() const;
  // Their panels (data_panel.cpp, legend_panel.cpp).
  void drawDataPanel();
  void drawColoringControls();
  void drawLegend();
  void drawErrorWindow();

  ViewerOptions options_;
  GlfwWindow window_;  // first member: the GL context outlives every GL object below
  std::unique_ptr<Backend> backend_;
  std::unique_ptr<FramePresenter> presenter_;
  RenderSettings settings_;
  std::string backendNote_;  // why this backend (e.g. "no CUDA device"), shown once in the panel
  StageTimings stageTimings_;

  Camera camera_;
  CameraMode mode_ = CameraMode::Fly;
  FlyController fly_;
  OrbitController orbit_;
  bool mouselook_ = false;
  std::array<bool, kKeyCount> keyHeld_{};
  std::array<bool, 8> buttonHeld_{};
  std::optional<glm::dvec2> lastCursorPx_;
  double lastClickSeconds_ = -1.0;
  glm::dvec2 lastClickPx_{0.0};
  std::vector<Point> pickPoints_;  // host copy of the points, made at the first double-click

  std::vector<ScriptEvent> script_;
  size_t nextScriptEvent_ = 0;
  std::vector<std::filesystem::path> pendingScreenshots_;
  std::vector<std::filesystem::path> pendingWindowShots_;
  std::string lastScreenshot_;

  // Loaded files: the merged cloud keeps the files' own colours and attributes host-side, so
  // colour modes switch without loss; the backend holds a coloured copy.
  std::unique_ptr<CloudLoader> loader_;
  PointCloud cloud_;
  bool haveCloud_ = false;               // false: the cylinder scene is shown
  std::vector<std::string> cloudFiles_;  // files merged into cloud_, for the panel
  ColoringOptions coloring_;
  Coloring usedColoring_;
  Box3d cloudBounds_;                    // world bounds of cloud_
  bool autoFrame_ = false;               // frame each arriving file until the user moves
  std::vector<std::string> errors_;      // shown in the error window until dismissed
  std::optional<uint64_t> pickedIndex_;  // into cloud_.points
  std::string openPath_;                 // the panel's Open field
  ReadOptions readOptions_;              // what Open reads of a file (--scan; the panel's Scan)
  glm::dvec3 shownOrigin_{0.0};          // origin of the points the backend holds
  // The file being read, as far as it is decoded (positions and the file's colours only); shown
  // merged after cloud_ (or alone when it replaces the scene) until the file itself arrives.
  PointCloud preview_;
  uint64_t previewSerial_ = 0;  // LoadPreview::fileSerial of preview_; 0: none
  bool previewReplaces_ = false;
  bool previewShown_ = false;  // the backend holds the preview, not cloud_ coloured
  bool scriptWaitsForLoad_ = false;

  FrameStats stats_;
  bool vsync_ = false;
  bool showDemo_ = false;
  bool quit_ = false;
  int framebufferWidthPx_ = 0;
  int framebufferHeightPx_ = 0;
  double nowSeconds_ = 0.0;
  float uiScale_ = 1.0f;
};

}  // namespace pcv::app
