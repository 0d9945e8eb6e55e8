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

constexpr double kDoubleClickSeconds = 0.35;
constexpr double kDoubleClickSlopPx = 4.0;

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

MotionKeys InputState::motionKeys() const {
  MotionKeys keys;
  keys.forward = keyHeld[GLFW_KEY_W];
  keys.back = keyHeld[GLFW_KEY_S];
  keys.left = keyHeld[GLFW_KEY_A];
  keys.right = keyHeld[GLFW_KEY_D];
  keys.up = keyHeld[GLFW_KEY_E] || keyHeld[GLFW_KEY_SPACE];
  keys.down =
      keyHeld[GLFW_KEY_Q] || keyHeld[GLFW_KEY_LEFT_CONTROL] || keyHeld[GLFW_KEY_RIGHT_CONTROL];
  keys.fast = keyHeld[GLFW_KEY_LEFT_SHIFT] || keyHeld[GLFW_KEY_RIGHT_SHIFT];
  return keys;
}

void ViewerWindow::onKey(int key, int action) {
  if (key < 0 || key >= InputState::kKeyCount) return;
  if (action == GLFW_PRESS || action == GLFW_REPEAT) input_.keyHeld[key] = true;
  if (action == GLFW_RELEASE) input_.keyHeld[key] = false;
  if (action != GLFW_PRESS) return;
  switch (key) {
    case GLFW_KEY_ESCAPE:
      setMouselook(!rig_.mouselook());
      break;
    case GLFW_KEY_TAB:
      setMode(rig_.mode() == CameraMode::Fly ? CameraMode::Orbit : CameraMode::Fly);
      break;
    case GLFW_KEY_F12:
      pendingScreenshots_.push_back(nextScreenshotPath());
      break;
    default:
      break;
  }
}

void ViewerWindow::onCursor(double xPx, double yPx) {
  const glm::dvec2 cursor(xPx, yPx);
  const glm::dvec2 delta = input_.cursorPx ? cursor - *input_.cursorPx : glm::dvec2(0.0);
  input_.cursorPx = cursor;
  if (!rig_.mouselook() && ImGui::GetIO().WantCaptureMouse) return;
  int windowWidth = 0, windowHeight = 0;
  glfwGetWindowSize(window_.handle(), &windowWidth, &windowHeight);
  rig_.cursorMoved(
      delta, windowHeight, input_.buttonHeld[GLFW_MOUSE_BUTTON_LEFT],
      input_.buttonHeld[GLFW_MOUSE_BUTTON_RIGHT] || input_.buttonHeld[GLFW_MOUSE_BUTTON_MIDDLE]);
}

void ViewerWindow::onMouseButton(int button, int action) {
  if (button < 0 || button >= int(input_.buttonHeld.size())) return;
  input_.buttonHeld[button] = action == GLFW_PRESS;
  if (action != GLFW_PRESS || button != GLFW_MOUSE_BUTTON_LEFT || rig_.mouselook()) return;
  double x = 0.0, y = 0.0;
  glfwGetCursorPos(window_.handle(), &x, &y);
  if (input_.cursorPx) x = input_.cursorPx->x, y = input_.cursorPx->y;  // scripted cursors
  const glm::dvec2 click(x, y);
  if (nowSeconds_ - input_.lastClickSeconds < kDoubleClickSeconds &&
      glm::length(click - input_.lastClickPx) < kDoubleClickSlopPx) {
    onDoubleClick(x, y);
    input_.lastClickSeconds = -1.0;
    return;
  }
  input_.lastClickSeconds = nowSeconds_;
  input_.lastClickPx = click;
}

void ViewerWindow::onScroll(double notches) {
  rig_.scrolled(notches);
}

void ViewerWindow::onDoubleClick(double xPx, double yPx) {
  int windowWidth = 0, windowHeight = 0;
  glfwGetWindowSize(window_.handle(), &windowWidth, &windowHeight);
  if (framebufferWidthPx_ <= 0 || windowWidth <= 0 || windowHeight <= 0) return;
  // Window coordinates (y down) to framebuffer pixels (row 0 at the bottom), HiDPI included.
  const int pixelX = int(xPx * framebufferWidthPx_ / windowWidth);
  const int pixelY = framebufferHeightPx_ - 1 - int(yPx * framebufferHeightPx_ / windowHeight);
  const std::optional<glm::dvec3> picked =
      scene_->pick(rig_.camera(), framebufferWidthPx_, framebufferHeightPx_, pixelX, pixelY);
  if (!picked) {
    std::fprintf(stderr, "pcv: no point under the cursor at (%d, %d)\n", pixelX, pixelY);
    return;
  }
  rig_.focusOn(*picked);
  std::fprintf(stderr, "pcv: focus on (%.3f, %.3f, %.3f)\n", picked->x, picked->y, picked->z);
}

void ViewerWindow::setMouselook(bool on) {
  rig_.setMouselook(on);
  GLFWwindow* window = window_.handle();
  if (on) {
    glfwSetInputMode(window, GLFW_CURSOR, GLFW_CURSOR_DISABLED);
    if (glfwRawMouseMotionSupported()) glfwSetInputMode(window, GLFW_RAW_MOUSE_MOTION, GLFW_TRUE);
  } else {
    if (glfwRawMouseMotionSupported()) glfwSetInputMode(window, GLFW_RAW_MOUSE_MOTION, GLFW_FALSE);
    glfwSetInputMode(window, GLFW_CURSOR, GLFW_CURSOR_NORMAL);
  }
  input_.cursorPx.reset();  // the first motion after a switch is not a delta
  std::fprintf(stderr, "pcv: mouselook %s\n", on ? "on" : "off");
}

void ViewerWindow::setMode(CameraMode mode) {
  if (mode == rig_.mode()) return;
  if (mode == CameraMode::Orbit && rig_.mouselook()) setMouselook(false);
  // Orbit around what is ahead, at the distance of the scene's centre (at least 1 unit for the
  // cylinders around the world origin; a thousandth of the scene for loaded files).
  const Camera& camera = rig_.camera();
  const Box3d& bounds = scene_->bounds();
  const bool files = scene_->hasCloud();
  const double toCentre =
      files ? glm::length(bounds.center() - camera.eye) : glm::length(camera.eye);
  rig_.setMode(mode, std::max(files ? 1e-3 * bounds.diagonal() : 1.0, toCentre));
  std::fprintf(stderr, "pcv: %s mode\n", mode == CameraMode::Fly ? "fly" : "orbit");
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

void ViewerWindow::applyScript(double nowSeconds) {
  while (nextScriptEvent_ < script_.size() && script_[nextScriptEvent_].timeSeconds <= nowSeconds) {
    if (script_[nextScriptEvent_].action == ScriptAction::WaitLoad && scene_->loading()) return;
    applyScriptEvent(script_[nextScriptEvent_++]);
  }
}

void ViewerWindow::applyScriptEvent(const ScriptEvent& event) {
  switch (event.action) {
    case ScriptAction::KeyDown:
      onKey(event.key, GLFW_PRESS);
      break;
    case ScriptAction::KeyUp:
      onKey(event.key, GLFW_RELEASE);
      break;
    case ScriptAction::KeyPress:
      onKey(event.key, GLFW_PRESS);
      onKey(event.key, GLFW_RELEASE);
      break;
    case ScriptAction::MouseMove:
      onCursor(event.x, event.y);
      break;
    case ScriptAction::MouseDown:
      onMouseButton(event.key, GLFW_PRESS);
      break;
    case ScriptAction::MouseUp:
      onMouseButton(event.key, GLFW_RELEASE);
      break;
    case ScriptAction::Scroll:
      onScroll(event.x);
      break;
    case ScriptAction::DoubleClick:
      onDoubleClick(event.x, event.y);
      break;
    case ScriptAction::Resize:
      glfwSetWindowSize(window_.handle(), int(event.x), int(event.y));
      break;
    case ScriptAction::Screenshot:
      pendingScreenshots_.emplace_back(event.text);
      break;
    case ScriptAction::WindowShot:
      pendingWindowShots_.emplace_back(event.text);
      break;
    case ScriptAction::Mode:
      setMode(event.text == "orbit" ? CameraMode::Orbit : CameraMode::Fly);
      break;
    case ScriptAction::Open:
    case ScriptAction::Add:
      openFiles({event.text}, event.action == ScriptAction::Open);
      break;
    case ScriptAction::Color: {
      ColoringOptions coloring = scene_->coloring();
      coloring.mode = parseColorMode(event.text);
      coloring.attribute = event.attribute;
      scene_->setColoring(coloring);
      break;
    }
    case ScriptAction::WaitLoad:
      break;
    case ScriptAction::Quit:
      quit_ = true;
      break;
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
