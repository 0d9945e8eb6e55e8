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

#include "pcv/gl/gl_check.hpp"
#include "pcv/io/png_writer.hpp"
#include "pcv/raster/view_setup.hpp"
#include "pcv/scene/cylinders.hpp"
#include "viewer/point_picker.hpp"
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
    : options_(options), window_("pcv - point cloud viewer", options.widthPx, options.heightPx) {
  std::fprintf(stderr, "pcv: %s\n", window_.description().c_str());
  std::string whyNotCuda;
  backend_ = createBackend(options.backend);
  if (backend_->name() == "cpu" && !cudaAvailable(&whyNotCuda)) {
    backendNote_ = "CPU fallback: " + whyNotCuda;
  }
  std::fprintf(stderr, "pcv: %s backend (%s)%s%s\n", backend_->name().c_str(),
               backend_->deviceDescription().c_str(), backendNote_.empty() ? "" : "; ",
               backendNote_.c_str());
  settings_.method = resolveMethod(*backend_, options.method);
  settings_.background = options.background;
  settings_.quality = options.quality;
  coloring_ = options.coloring;
  readOptions_ = options.read;
  if (options.files.empty()) {
    backend_->generateCylinders(makeCylinderScene(options.seed), options.pointCount);
  } else {
    backend_->setPoints({});  // an empty view until the first file arrives
    openFiles(options.files, true);
  }
  presenter_ = std::make_unique<FramePresenter>(*backend_, parseInteropPath(options.interop));
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
  loader_.reset();     // cancels a load in progress and joins its thread
  presenter_.reset();  // GL objects and CUDA registrations before the context goes
}

void ViewerWindow::onKey(int key, int action) {
  if (key < 0 || key >= kKeyCount) return;
  if (action == GLFW_PRESS || action == GLFW_REPEAT) keyHeld_[key] = true;
  if (action == GLFW_RELEASE) keyHeld_[key] = false;
  if (action != GLFW_PRESS) return;
  switch (key) {
    case GLFW_KEY_ESCAPE:
      setMouselook(!mouselook_);
      break;
    case GLFW_KEY_TAB:
      setMode(mode_ == CameraMode::Fly ? CameraMode::Orbit : CameraMode::Fly);
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
  const glm::dvec2 delta = lastCursorPx_ ? cursor - *lastCursorPx_ : glm::dvec2(0.0);
  lastCursorPx_ = cursor;
  int windowWidth = 0, windowHeight = 0;
  glfwGetWindowSize(window_.handle(), &windowWidth, &windowHeight);
  if (mouselook_) {
    fly_.look(camera_, delta, windowHeight);
    autoFrame_ = false;
    return;
  }
  if (mode_ != CameraMode::Orbit || ImGui::GetIO().WantCaptureMouse) return;
  if (buttonHeld_[GLFW_MOUSE_BUTTON_LEFT] || buttonHeld_[GLFW_MOUSE_BUTTON_RIGHT] ||
      buttonHeld_[GLFW_MOUSE_BUTTON_MIDDLE]) {
    autoFrame_ = false;
  }
  if (buttonHeld_[GLFW_MOUSE_BUTTON_LEFT]) orbit_.orbit(camera_, delta, windowHeight);
  if (buttonHeld_[GLFW_MOUSE_BUTTON_RIGHT] || buttonHeld_[GLFW_MOUSE_BUTTON_MIDDLE]) {
    orbit_.pan(camera_, delta, windowHeight);
  }
}

void ViewerWindow::onMouseButton(int button, int action) {
  if (button < 0 || button >= int(buttonHeld_.size())) return;
  buttonHeld_[button] = action == GLFW_PRESS;
  if (action != GLFW_PRESS || button != GLFW_MOUSE_BUTTON_LEFT || mouselook_) return;
  double x = 0.0, y = 0.0;
  glfwGetCursorPos(window_.handle(), &x, &y);
  if (lastCursorPx_) x = lastCursorPx_->x, y = lastCursorPx_->y;  // scripted cursors
  const glm::dvec2 click(x, y);
  if (nowSeconds_ - lastClickSeconds_ < kDoubleClickSeconds &&
      glm::length(click - lastClickPx_) < kDoubleClickSlopPx) {
    onDoubleClick(x, y);
    lastClickSeconds_ = -1.0;
    return;
  }
  lastClickSeconds_ = nowSeconds_;
  lastClickPx_ = click;
}

void ViewerWindow::onScroll(double notches) {
  autoFrame_ = false;
  if (mode_ == CameraMode::Orbit && !mouselook_) {
    orbit_.zoom(camera_, notches);
  } else {
    fly_.adjustSpeed(notches);
  }
}

void ViewerWindow::onDoubleClick(double xPx, double yPx) {
  int windowWidth = 0, windowHeight = 0;
  glfwGetWindowSize(window_.handle(), &windowWidth, &windowHeight);
  if (framebufferWidthPx_ <= 0 || windowWidth <= 0 || windowHeight <= 0) return;
  // Window coordinates (y down) to framebuffer pixels (row 0 at the bottom), HiDPI included.
  const int pixelX = int(xPx * framebufferWidthPx_ / windowWidth);
  const int pixelY = framebufferHeightPx_ - 1 - int(yPx * framebufferHeightPx_ / windowHeight);
  std::optional<glm::dvec3> picked;
  if (haveCloud_) {
    // The host copy in file order: the index also finds the point's attributes for the panel.
    pickedIndex_ = pickPointIndex(
        cloud_.points,
        makeViewTransform(camera_, framebufferWidthPx_, framebufferHeightPx_, cloud_.origin),
        pixelX, pixelY);
    if (pickedIndex_) {
      const Point& p = cloud_.points[*pickedIndex_];
      picked = cloud_.origin + glm::dvec3(p.x, p.y, p.z);
    }
  } else {
    if (pickPoints_.size() != backend_->pointCount()) pickPoints_ = backend_->downloadPoints();
    picked = pickPoint(
        pickPoints_,
        makeViewTransform(camera_, framebufferWidthPx_, framebufferHeightPx_, shownOrigin_), pixelX,
        pixelY);
  }
  if (!picked) {
    std::fprintf(stderr, "pcv: no point under the cursor at (%d, %d)\n", pixelX, pixelY);
    return;
  }
  // Turn to the point and orbit around it from here: no jump in position.
  const glm::dvec3 toPoint = *picked - camera_.eye;
  const double distance = glm::length(toPoint);
  if (distance <= 0.0) return;
  camera_.yawRadians = float(std::atan2(toPoint.y, toPoint.x));
  camera_.pitchRadians = float(std::asin(std::clamp(toPoint.z / distance, -1.0, 1.0)));
  orbit_.focus(camera_, *picked, distance);
  autoFrame_ = false;
  std::fprintf(stderr, "pcv: focus on (%.3f, %.3f, %.3f)\n", picked->x, picked->y, picked->z);
}

void ViewerWindow::setMouselook(bool on) {
  mouselook_ = on;
  GLFWwindow* window = window_.handle();
  if (on) {
    if (mode_ == CameraMode::Orbit) setMode(CameraMode::Fly);  // mouselook is the fly mode's
    glfwSetInputMode(window, GLFW_CURSOR, GLFW_CURSOR_DISABLED);
    if (glfwRawMouseMotionSupported()) glfwSetInputMode(window, GLFW_RAW_MOUSE_MOTION, GLFW_TRUE);
  } else {
    if (glfwRawMouseMotionSupported()) glfwSetInputMode(window, GLFW_RAW_MOUSE_MOTION, GLFW_FALSE);
    glfwSetInputMode(window, GLFW_CURSOR, GLFW_CURSOR_NORMAL);
  }
  lastCursorPx_.reset();  // the first motion after a switch is not a delta
  std::fprintf(stderr, "pcv: mouselook %s\n", on ? "on" : "off");
}

void ViewerWindow::setMode(CameraMode mode) {
  if (mode == mode_) return;
  if (mode == CameraMode::Orbit) {
    if (mouselook_) setMouselook(false);
    // Orbit around what is ahead, at the distance of the scene's centre (at least 1 unit for
    // the cylinders around the world origin; a thousandth of the scene for loaded files).
    const double toCentre =
        haveCloud_ ? glm::length(cloudBounds_.center() - camera_.eye) : glm::length(camera_.eye);
    orbit_.attach(camera_, std::max(haveCloud_ ? 1e-3 * cloudBounds_.diagonal() : 1.0, toCentre));
  }
  mode_ = mode;
  std::fprintf(stderr, "pcv: %s mode\n", mode == CameraMode::Fly ? "fly" : "orbit");
}

MotionKeys ViewerWindow::motionKeys() const {
  MotionKeys keys;
  keys.forward = keyHeld_[GLFW_KEY_W];
  keys.back = keyHeld_[GLFW_KEY_S];
  keys.left = keyHeld_[GLFW_KEY_A];
  keys.right = keyHeld_[GLFW_KEY_D];
  keys.up = keyHeld_[GLFW_KEY_E] || keyHeld_[GLFW_KEY_SPACE];
  keys.down =
      keyHeld_[GLFW_KEY_Q] || keyHeld_[GLFW_KEY_LEFT_CONTROL] || keyHeld_[GLFW_KEY_RIGHT_CONTROL];
  keys.fast = keyHeld_[GLFW_KEY_LEFT_SHIFT] || keyHeld_[GLFW_KEY_RIGHT_SHIFT];
  return keys;
}

void ViewerWindow::updateCamera(double dtSeconds) {
  if (mode_ == CameraMode::Fly) {
    const MotionKeys keys = motionKeys();
    if (keys.forward || keys.back || keys.left || keys.right || keys.up || keys.down) {
      autoFrame_ = false;
    }
    fly_.move(camera_, keys, dtSeconds);
  }
}

void ViewerWindow::applyScript(double nowSeconds) {
  while (nextScriptEvent_ < script_.size() && script_[nextScriptEvent_].timeSeconds <= nowSeconds) {
    if (script_[nextScriptEvent_].action == ScriptAction::WaitLoad && waitingForLoad()) return;
    const ScriptEvent& event = script_[nextScriptEvent_++];
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
      case ScriptAction::Color:
        coloring_.mode = parseColorMode(event.text);
        coloring_.attribute = event.attribute;
        recolor();
        break;
      case ScriptAction::WaitLoad:
        break;
      case ScriptAction::Quit:
        quit_ = true;
        break;
    }
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
  presenter_->render(makeViewTransform(camera_, widthPx, heightPx, shownOrigin_), settings_);
  presenter_->blitTo(0, widthPx, heightPx);
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
    takeLoadedFiles();  // before the script, so wait_load sees what has arrived
    takeLoadPreview();  // after: a finished file has dropped its own preview
    applyScript(nowSeconds_);
    // Last frame's stage times: its events are done by now, so this rarely waits.
    if (frame > 0) stageTimings_ = backend_->lastTimings();
    updateCamera(nowSeconds_ - lastSimSeconds);
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
    drawSettingsPanel();
    drawDataPanel();
    drawLegend();
    drawErrorWindow();
    ImGui::Render();
    GL_CHECK(glViewport(0, 0, widthPx, heightPx));
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    glfwSwapBuffers(window);

    ++frame;
    if (options_.frames > 0 && frame >= options_.frames) break;
  }
  const glm::dvec3 eye = camera_.eye;
  std::fprintf(stderr, "pcv: %llu frames; camera eye (%.4f, %.4f, %.4f) yaw %.4f pitch %.4f\n",
               static_cast<unsigned long long>(frame), eye.x, eye.y, eye.z,
               double(camera_.yawRadians), double(camera_.pitchRadians));
}

void runViewer(const ViewerOptions& options) {
  ViewerWindow viewer(options);
  viewer.run();
}

}  // namespace pcv::app
