#include "viewer/viewer.hpp"

#include <epoxy/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <thread>

#include <glm/gtc/type_ptr.hpp>

#include "pcv/core/camera_framing.hpp"
#include "pcv/gl/gl_check.hpp"
#include "pcv/io/png_writer.hpp"
#include "pcv/raster/view_setup.hpp"
#include "viewer/viewer_window.hpp"

namespace pcv::app {
namespace {

ViewerWindow& viewerOf(GLFWwindow* window) {
  return *static_cast<ViewerWindow*>(glfwGetWindowUserPointer(window));
}

/// Owns the Dear ImGui context and its GLFW/OpenGL3 backends for the window's lifetime.
class ImGuiSession {
 public:
  ImGuiSession(GLFWwindow* window, float uiScale) {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;  // no imgui.ini litter in the working directory
    ImGui::StyleColorsDark();
    ImGui::GetStyle().ScaleAllSizes(uiScale);
    ImGui::GetIO().FontGlobalScale = uiScale;
    // Installs ImGui's callbacks, which chain to the viewer's (set before this).
    ImGui_ImplGlfw_InitForOpenGL(window, true);
    ImGui_ImplOpenGL3_Init("#version 330 core");
  }
  ~ImGuiSession() {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
  }
};

}  // namespace

ViewerWindow::ViewerWindow(const ViewerOptions& options)
    : options_(options),
      window_("pcv - point cloud viewer", options.widthPx, options.heightPx),
      settings_(options.render) {
  std::fprintf(stderr, "pcv: %s\n", window_.description().c_str());
  renderer_ = createRenderer(options.backend);
  std::string whyNotCuda;
  if (renderer_->backendName() == "cpu" && !cudaAvailable(&whyNotCuda)) {
    backendNote_ = whyNotCuda + "; using the CPU backend";
  }
  std::fprintf(stderr, "pcv: %s backend (%s)%s%s\n", renderer_->backendName().c_str(),
               renderer_->deviceDescription().c_str(), backendNote_.empty() ? "" : "; ",
               backendNote_.c_str());
  renderer_->methodFor(settings_);  // an unknown method fails here, not at the first frame
  presenter_ = std::make_unique<FramePresenter>(*renderer_, parseInteropPath(options.interop));
  scene_ = std::make_unique<SceneModel>(*renderer_, options.demo, options.coloring);
  readOptions_ = options.read;
  if (options.camera) rig_.setCamera(*options.camera);
  if (options.files.empty()) {
    scene_->showDemo();
  } else {
    openFiles(options.files, true);
    // A camera given on the command line stays where it is; otherwise the files are framed.
    rig_.setFollowsScene(!options.camera);
  }
  if (!options.script.empty()) script_ = loadInputScript(options.script);

  GLFWwindow* window = window_.handle();
  glfwSetWindowUserPointer(window, this);
  glfwSetKeyCallback(window, [](GLFWwindow* w, int key, int, int action, int) {
    if (!ImGui::GetIO().WantCaptureKeyboard || action == GLFW_RELEASE)
      viewerOf(w).onKey(key, action);
  });
  glfwSetCursorPosCallback(window,
                           [](GLFWwindow* w, double x, double y) { viewerOf(w).onCursor(x, y); });
  glfwSetMouseButtonCallback(window, [](GLFWwindow* w, int button, int action, int) {
    if (!ImGui::GetIO().WantCaptureMouse || action == GLFW_RELEASE) {
      viewerOf(w).onMouseButton(button, action);
    }
  });
  glfwSetScrollCallback(window, [](GLFWwindow* w, double, double dy) {
    if (!ImGui::GetIO().WantCaptureMouse) viewerOf(w).onScroll(dy);
  });
  float scaleX = 1.0f, scaleY = 1.0f;
  glfwGetWindowContentScale(window, &scaleX, &scaleY);
  uiScale_ = std::max(1.0f, std::max(scaleX, scaleY));
}

ViewerWindow::~ViewerWindow() {
  scene_.reset();      // cancels a load in progress, joins its thread, removes its sets
  presenter_.reset();  // GL objects and CUDA registrations before the context goes
}

void ViewerWindow::openFiles(const std::vector<std::string>& files, bool replace) {
  if (files.empty()) return;
  if (replace) rig_.setFollowsScene(true);  // a new scene: show it whole as it arrives
  scene_->open(files, replace, readOptions_);
}

float ViewerWindow::aspect() const {
  return framebufferHeightPx_ > 0 ? float(framebufferWidthPx_) / float(framebufferHeightPx_)
                                  : float(options_.widthPx) / float(options_.heightPx);
}

void ViewerWindow::takeSceneChanges() {
  const std::optional<Box3d> shown = scene_->poll();
  for (std::string& error : scene_->takeErrors()) {
    std::fprintf(stderr, "pcv: error: %s\n", error.c_str());
    errors_.push_back(std::move(error));
  }
  if (!shown) return;
  if (rig_.followsScene()) {
    rig_.frame(*shown, aspect());
  } else if (options_.camera && !options_.clipPlanesGiven) {
    // A camera placed by hand still sees the whole scene.
    Camera camera = rig_.camera();
    fitClipPlanes(camera, *shown);
    rig_.setCamera(camera);
  }
}

std::filesystem::path ViewerWindow::nextScreenshotPath() const {
  const std::time_t now = std::time(nullptr);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&now));
  std::filesystem::path path =
      std::filesystem::path(options_.screenshotDir) / ("pcv-" + std::string(stamp) + ".png");
  for (int n = 2; std::filesystem::exists(path); ++n) {
    path = std::filesystem::path(options_.screenshotDir) /
           ("pcv-" + std::string(stamp) + "-" + std::to_string(n) + ".png");
  }
  return path;
}

void ViewerWindow::renderFrame(int widthPx, int heightPx) {
  presenter_->render(makeViewTransform(rig_.camera(), widthPx, heightPx, scene_->shownOrigin()),
                     settings_);
  presenter_->blitTo(0, widthPx, heightPx);
}

void ViewerWindow::drawPanels() {
  const ViewerStatus status{.frameMs = stats_.smoothedFrameMs,
                            .fps = stats_.fps(),
                            .stages = stageTimings_,
                            .points = renderer_->pointCount(),
                            .backend = renderer_->backendName(),
                            .backendNote = backendNote_,
                            .interop = interopPathName(presenter_->path()),
                            .interopFallback = presenter_->fallbackReason(),
                            .lastScreenshot = lastScreenshot_};
  if (const auto mode =
          drawSettingsPanel(status, renderer_->methods(), settings_, rig_, toggles_)) {
    setMode(*mode);
  }
  if (const auto request =
          drawDataPanel(*scene_, rig_.camera(), openPath_, readOptions_, uiScale_)) {
    openFiles({request->path}, request->replace);
  }
  drawLegend(*scene_);
  drawErrorWindow(errors_);
}

void ViewerWindow::takePendingShots(int widthPx, int heightPx) {
  for (const auto& path : pendingWindowShots_) {
    writePng(path, readFramebuffer(0, widthPx, heightPx));
    std::fprintf(stderr, "pcv: saved window shot %dx%d to %s\n", widthPx, heightPx, path.c_str());
  }
  pendingWindowShots_.clear();
  for (const auto& path : pendingScreenshots_) {
    try {
      writePng(path, presenter_->readImage());
      lastScreenshot_ = std::filesystem::absolute(path).string();
      std::fprintf(stderr, "pcv: saved screenshot %dx%d to %s\n", widthPx, heightPx,
                   lastScreenshot_.c_str());
    } catch (const Error& error) {
      lastScreenshot_ = std::string("failed: ") + error.what();
      std::fprintf(stderr, "pcv: screenshot %s\n", lastScreenshot_.c_str());
    }
  }
  pendingScreenshots_.clear();
}

void ViewerWindow::run() {
  GLFWwindow* window = window_.handle();
  ImGuiSession imgui(window, uiScale_);
  const double startSeconds = glfwGetTime();
  double lastWallSeconds = startSeconds;
  double lastSimSeconds = 0.0;
  uint64_t frame = 0;
  while (!glfwWindowShouldClose(window) && !quit_) {
    glfwPollEvents();
    if (glfwGetWindowAttrib(window, GLFW_ICONIFIED)) {
      glfwWaitEventsTimeout(0.25);  // sleep while minimized: nothing to show
      continue;
    }
    const double wallSeconds = glfwGetTime();
    nowSeconds_ = options_.frameDtSeconds > 0.0 ? double(frame) * options_.frameDtSeconds
                                                : wallSeconds - startSeconds;
    if (frame > 0) stats_.add((wallSeconds - lastWallSeconds) * 1000.0);
    lastWallSeconds = wallSeconds;
    takeSceneChanges();  // before the script, so wait_load sees what has arrived
    applyScript(nowSeconds_);
    // Last frame's stage times: its events are done by now, so this rarely waits.
    if (frame > 0) stageTimings_ = renderer_->lastTimings();
    rig_.move(input_.motionKeys(), nowSeconds_ - lastSimSeconds);
    lastSimSeconds = nowSeconds_;

    int widthPx = 0, heightPx = 0;
    glfwGetFramebufferSize(window, &widthPx, &heightPx);
    if (widthPx <= 0 || heightPx <= 0) continue;
    if (widthPx != framebufferWidthPx_ || heightPx != framebufferHeightPx_) {
      std::fprintf(stderr, "pcv: rendering at %dx%d\n", widthPx, heightPx);
      framebufferWidthPx_ = widthPx;
      framebufferHeightPx_ = heightPx;
    }
    renderFrame(widthPx, heightPx);
    takePendingShots(widthPx, heightPx);

    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    drawPanels();
    ImGui::Render();
    GL_CHECK(glViewport(0, 0, widthPx, heightPx));
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    glfwSwapBuffers(window);

    ++frame;
    if (options_.frames > 0 && frame >= options_.frames) break;
  }
  const Camera& camera = rig_.camera();
  std::fprintf(stderr, "pcv: %llu frames; camera eye (%.4f, %.4f, %.4f) yaw %.4f pitch %.4f\n",
               static_cast<unsigned long long>(frame), camera.eye.x, camera.eye.y, camera.eye.z,
               double(camera.yawRadians), double(camera.pitchRadians));
}

void runViewer(const ViewerOptions& options) {
  ViewerWindow viewer(options);
  viewer.run();
}

}  // namespace pcv::app
