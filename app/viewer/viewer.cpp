// The viewer's frame loop: the window, the scene's changes, rendering (or the notice while the
// cylinders are laid out), screenshots and the panels.
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
#include <nlohmann/json.hpp>

#include "pcv/core/camera_framing.hpp"
#include "pcv/core/number_text.hpp"
#include "pcv/gl/gl_check.hpp"
#include "pcv/io/png_writer.hpp"
#include "options/run_report.hpp"
#include "pcv/raster/view_setup.hpp"
#include "pcv/raster/vulkan_devices.hpp"
#include "pcv/session/declared_crs.hpp"
#include "viewer/tools/standard_tools.hpp"
#include "viewer/viewer_window.hpp"

namespace pcv::app {
namespace {

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
      window_("pcv - point cloud viewer", options.widthPx, options.heightPx,
              options.glContext == "egl" ? GlContextApi::Egl : GlContextApi::Native),
      settings_(options.render),
      input_(tools_, rig_, [this](glm::dvec2 atPx) { focusAt(atPx); }) {
  std::fprintf(stderr, "pcv: %s\n", window_.description().c_str());
  renderer_ = createRenderer(options.backend, {.vulkanDevice = options.vulkanDevice});
  std::string whyNotCuda, whyNotVulkan;
  if (renderer_->backendName() == "cpu" && !cudaAvailable(&whyNotCuda)) {
    vulkanGpuAvailable(&whyNotVulkan);
    backendNote_ = whyNotCuda + "; using the CPU backend (Vulkan: " +
                   (whyNotVulkan.empty() ? "no GPU could draw" : whyNotVulkan) + ")";
  }
  std::fprintf(stderr, "pcv: %s backend (%s)%s%s\n", renderer_->backendName().c_str(),
               renderer_->deviceDescription().c_str(), backendNote_.empty() ? "" : "; ",
               backendNote_.c_str());
  renderer_->methodFor(settings_);  // an unknown method fails here, not at the first frame
  presenter_ = std::make_unique<FramePresenter>(*renderer_, parseInteropPath(options.interop));
  SessionReport report = reportOnStderr();
  // The scene's errors go to the Error window, printed there once; its files' warnings to the
  // Data section too.
  report.error = [this](const std::string& error) { showError(error); };
  report.warning = [this, onStderr = report.warning](const std::string& warning) {
    onStderr(warning);
    fileWarnings_.push_back(warning);
  };
  // Files given, opened and dropped are planned under the same limits (--memory, --in-core ...).
  scene_ = std::make_unique<SceneModel>(*renderer_, options.demo, options.coloring, options.stream,
                                        report);
  addStandardTools(tools_, *this);
  readOptions_ = options.read;
  // Files decode the attribute coloured by and the one filtered by, beside their default ones.
  readOptions_.alsoDecode(options.coloring.attribute);
  readOptions_.alsoDecode(options.stream.rangeAttribute);
  // Withheld (deleted) points are never drawn: the flag is read to leave them out.
  readOptions_.alsoDecode("withheld");
  // --ortho: orthographic from the first frame (framed on the scene once it is known).
  Camera start =
      options.orthoStart ? options.orthoStart->camera : options.camera.value_or(Camera{});
  start.upAxis = options.upAxis;
  rig_.setCamera(start);
  // An orthographic start is framed on the scene (the cylinders too) once its bounds are known,
  // unless its eye was given.
  const bool orthoFramed = options.orthoStart && !options.orthoStart->eyeGiven;
  // Inputs that could not be opened (view_command.cpp) are shown beside what did open.
  for (const std::string& error : options.startupErrors) showError(error);
  if (options.files.empty() && options.startupErrors.empty()) {
    scene_->showDemo();
    rig_.setFollowsScene(orthoFramed);
  } else if (!options.files.empty()) {
    openFiles(options.files, true);
    // A camera given on the command line stays where it is; otherwise the files are framed.
    rig_.setFollowsScene(!options.camera || orthoFramed);
  }
  if (!options.script.empty()) script_ = loadScript(options.script);

  installCallbacks();
  float scaleX = 1.0f, scaleY = 1.0f;
  glfwGetWindowContentScale(window_.handle(), &scaleX, &scaleY);
  uiScale_ = std::max(1.0f, std::max(scaleX, scaleY));
  tools_.sceneShown();  // the scene's bookmarks, even before anything arrives
}

ViewerWindow::~ViewerWindow() {
  scene_.reset();      // cancels a load in progress, joins its threads, removes its sets
  presenter_.reset();  // GL objects and CUDA registrations before the context goes
}

void ViewerWindow::openFiles(const std::vector<std::string>& files, bool replace) {
  if (files.empty()) return;
  if (replace) rig_.setFollowsScene(true);  // a new scene: show it whole as it arrives
  scene_->open(files, replace, readOptions_);
}

float ViewerWindow::aspect() const {
  return framebufferPx_.y > 0 ? float(framebufferPx_.x) / float(framebufferPx_.y)
                              : float(options_.widthPx) / float(options_.heightPx);
}

void ViewerWindow::takeSceneChanges() {
  const std::optional<Box3d> shown = scene_->poll();
  if (!shown) return;
  // One header (and PROJ's database for an EPSG code alone) per new set of files, not per poll.
  if (std::vector<std::string> files = scene_->parts().files(); files != crsFiles_) {
    crs_ = declaredCoordinateSystem(files);
    crsFiles_ = std::move(files);
  }
  // The start view follows the scene in while it stays orthographic; once the user turns to
  // perspective, files opened later are framed as usual.
  if (rig_.followsScene() && options_.orthoStart && rig_.camera().orthographic()) {
    rig_.frame(*shown, aspect());  // the fly speed and orbit distance for the scene's size
    rig_.jumpTo(startCamera(SceneKind::InCore, *shown, aspect(), *options_.orthoStart));
    rig_.setFollowsScene(true);  // jumpTo lets go of the scene; the start view follows it in
  } else if (rig_.followsScene()) {
    // Fitted to the files' points once they are all read; to the bounds while they load.
    rig_.frame(*shown, aspect(),
               scene_->loading() ? std::vector<glm::dvec3>()
                                 : framingSamples(scene_->parts().inCore.cloud()),
               sidebarShare_);
  } else if (options_.orthoStart && options_.orthoStart->eyeGiven && !orthoEyePlaced_) {
    // An orthographic eye placed by hand keeps its place; width and clip planes fit the scene
    // it first sees.
    rig_.setCamera(startCamera(SceneKind::InCore, *shown, aspect(), *options_.orthoStart));
    orthoEyePlaced_ = true;
  } else if (options_.camera && !options_.clipPlanesGiven) {
    // A camera placed by hand still sees the whole scene.
    Camera camera = rig_.camera();
    fitClipPlanes(camera, *shown);
    rig_.setCamera(camera);
  }
  tools_.sceneShown();  // after the camera: the Views tool reads its projection
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

RenderSettings ViewerWindow::frameSettings() const {
  RenderSettings settings = settings_;
  // Clipping draws from the compact layout: a 16-byte method picked before waits until it ends.
  if (settings.clip.active() && settings.method && *settings.method != RasterMethod::Compact) {
    settings.method.reset();
  }
  return settings;
}

void ViewerWindow::renderFrame(int widthPx, int heightPx) {
  if (scene_->preparing()) {
    // The renderer is laying out the cylinders on another thread: the window shows the
    // background and the notice, and takes input, until they are ready.
    const uint32_t b = settings_.background;
    GL_CHECK(glClearColor(redOf(b) / 255.0f, greenOf(b) / 255.0f, blueOf(b) / 255.0f, 1.0f));
    GL_CHECK(glClear(GL_COLOR_BUFFER_BIT));
    return;
  }
  try {
    scene_->updateStream(rig_.camera(), widthPx, heightPx);  // a streamed file's nodes
    const SceneParts& parts = scene_->parts();
    presenter_->render(makeViewTransform(rig_.camera(), widthPx, heightPx, parts.origin),
                       frameSettings(), parts.drawnSets());
  } catch (const InputError& error) {
    // A setting the renderer refuses (a typed clip box it cannot use): say so, draw without it.
    showError(error.what());
    settings_.clip = {};
    return;
  }
  presenter_->blitTo(0, widthPx, heightPx);
}

void ViewerWindow::drawPanels() {
  const bool preparing = scene_->preparing();
  const uint64_t drawn = preparing ? 0 : scene_->parts().pointsDrawn();
  const ViewerStatus status{.frameMs = stats_.smoothedFrameMs,
                            .fps = stats_.fps(),
                            .stages = stageTimings_,
                            .points = drawn,
                            .backend = renderer_->backendName(),
                            .backendNote = backendNote_,
                            .interop = interopPathName(presenter_->path()),
                            .interopFallback = presenter_->fallbackReason(),
                            .lastScreenshot = shots_.lastScene};
  const std::vector<RasterMethod> methods = renderer_->methods();
  PanelContext context{.status = status,
                       .methods = methods,
                       .settings = settings_,
                       .toggles = toggles_,
                       .scene = *scene_,
                       .fileWarnings = fileWarnings_,
                       .openPath = openPath_,
                       .openOptions = readOptions_,
                       .datasetList = datasetList_};
  PanelRequests requests;
  if (collapseSidebar_) ImGui::SetNextWindowCollapsed(*std::exchange(collapseSidebar_, {}));
  sidebarWidthPx_ = drawSidebar(context, tools_, requests);
  const float windowWidth = ImGui::GetMainViewport()->Size.x;
  const double share = windowWidth > 0.0f ? double(sidebarWidthPx_ / windowWidth) : 0.0;
  if (share != sidebarShare_) {
    sidebarShare_ = share;
    // Shown first, collapsed or opened: a scene not yet moved is framed in the new free part.
    if (rig_.followsScene() && scene_->parts().holdsFiles() && !rig_.camera().orthographic()) {
      rig_.frame(scene_->shownBounds(), aspect(),
                 scene_->loading() ? std::vector<glm::dvec3>()
                                   : framingSamples(scene_->parts().inCore.cloud()),
                 sidebarShare_);
    }
  }
  drawLegend(*scene_);
  drawErrorWindow(errors_, sidebarWidthPx_);
  tools_.drawOverlays(projector());
  drawNotice(preparing ? "preparing " + countText(scene_->parts().demo.pointCount) + " points..."
                       : "");
  if (requests.open) openFiles({requests.open->path}, requests.open->replace);
  if (requests.frameTile) frameTile(*requests.frameTile);
}

void ViewerWindow::takePendingShots(int widthPx, int heightPx) {
  for (const auto& path : shots_.window) {
    writePng(path, readFramebuffer(0, widthPx, heightPx));
    std::fprintf(stderr, "pcv: saved window shot %dx%d to %s\n", widthPx, heightPx, path.c_str());
  }
  shots_.window.clear();
  if (scene_->preparing()) return;  // nothing drawn yet: the screenshots wait for the scene
  for (const auto& path : shots_.scene) {
    try {
      writePng(path, presenter_->readImage());
      // Normal form: "dir/./pcv-....png" reads as "dir/pcv-....png".
      shots_.lastScene = std::filesystem::absolute(path).lexically_normal().string();
      std::fprintf(stderr, "pcv: saved screenshot %dx%d to %s\n", widthPx, heightPx,
                   shots_.lastScene.c_str());
    } catch (const Error& error) {
      shots_.lastScene = std::string("failed: ") + error.what();
      std::fprintf(stderr, "pcv: screenshot %s\n", shots_.lastScene.c_str());
    }
  }
  shots_.scene.clear();
}

void ViewerWindow::run() {
  GLFWwindow* window = window_.handle();
  ImGuiSession imgui(window, uiScale_);
  double lastWallSeconds = glfwGetTime();
  // The script's clock and --frames start once the scene can be drawn: until the cylinders are
  // laid out, frames show the notice only.
  std::optional<double> sceneStartSeconds;
  double lastSimSeconds = 0.0;
  uint64_t frame = 0, sceneFrame = 0;
  while (!glfwWindowShouldClose(window) && !quit_) {
    glfwPollEvents();
    if (glfwGetWindowAttrib(window, GLFW_ICONIFIED)) {
      glfwWaitEventsTimeout(0.25);  // sleep while minimized: nothing to show
      continue;
    }
    const double wallSeconds = glfwGetTime();
    if (frame > 0) stats_.add((wallSeconds - lastWallSeconds) * 1000.0);
    lastWallSeconds = wallSeconds;
    takeSceneChanges();  // before the script, so wait_load sees what has arrived
    const bool ready = !scene_->preparing();
    if (ready) {
      if (!sceneStartSeconds) sceneStartSeconds = wallSeconds;
      nowSeconds_ = options_.frameDtSeconds > 0.0 ? double(sceneFrame) * options_.frameDtSeconds
                                                  : wallSeconds - *sceneStartSeconds;
      script_.advance(nowSeconds_);
      // Last frame's stage times: its events are done by now, so this rarely waits.
      if (sceneFrame > 0) stageTimings_ = renderer_->lastTimings();
      rig_.move(input_.state().motionKeys(), nowSeconds_ - lastSimSeconds);
      lastSimSeconds = nowSeconds_;
      tools_.frame(nowSeconds_);  // after the keys: a playing path has the last word
    }

    int widthPx = 0, heightPx = 0;
    glfwGetFramebufferSize(window, &widthPx, &heightPx);
    if (widthPx <= 0 || heightPx <= 0) continue;
    if (glm::ivec2(widthPx, heightPx) != framebufferPx_) {
      std::fprintf(stderr, "pcv: rendering at %dx%d\n", widthPx, heightPx);
      framebufferPx_ = {widthPx, heightPx};
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
    for (const auto& path : std::exchange(shots_.ui, {})) {
      writePng(path, readFramebuffer(0, widthPx, heightPx));
      std::fprintf(stderr, "pcv: saved window with panels %dx%d to %s\n", widthPx, heightPx,
                   path.c_str());
    }
    glfwSwapBuffers(window);

    ++frame;
    if (ready) ++sceneFrame;
    if (options_.frames > 0 && sceneFrame >= options_.frames) break;
  }
  std::fprintf(stderr, "pcv: frames reached GL by the %s path\n",
               interopPathName(presenter_->path()));
  const Camera& camera = rig_.camera();
  std::fprintf(stderr, "pcv: %llu frames; camera eye (%.4f, %.4f, %.4f) yaw %.4f pitch %.4f\n",
               static_cast<unsigned long long>(frame), camera.eye.x, camera.eye.y, camera.eye.z,
               double(camera.yawRadians), double(camera.pitchRadians));
  recordRun(frame);
}

void ViewerWindow::recordRun(uint64_t frames) const {
  nlohmann::json& report = runReport();
  const Camera& camera = rig_.camera();
  report["frames"] = frames;
  report["backend"] = renderer_->backendName();
  report["device"] = renderer_->deviceDescription();
  report["interop"] = interopPathName(presenter_->path());
  report["interopFallback"] = presenter_->fallbackReason();
  report["camera"] = {{"eye", {camera.eye.x, camera.eye.y, camera.eye.z}},
                      {"yaw", camera.yawRadians},
                      {"pitch", camera.pitchRadians},
                      {"orthographic", camera.orthographic()},
                      {"fovY", camera.fovYRadians},
                      {"upAxis", upAxisName(camera.upAxis)}};
  const glm::dvec3& target = rig_.orbit().target();
  report["orbitTarget"] = {target.x, target.y, target.z};
  report["window"] = {
      {"width", framebufferPx_.x}, {"height", framebufferPx_.y}, {"sidebarShare", sidebarShare_}};
  report["mouselook"] = rig_.mouselook();
  report["errors"] = errorLog_;
  nlohmann::json escapes = nlohmann::json::array();
  for (const EscapeRecord& escape : escapes_) {
    if (escape.cancelledTool.empty()) {
      escapes.push_back({{"mouselook", escape.mouselook}});
    } else {
      escapes.push_back({{"cancelled", escape.cancelledTool}});
    }
  }
  report["escapes"] = escapes;
  nlohmann::json clip = nlohmann::json::object();
  if (const std::optional<ClipBox>& box = settings_.clip.box) {
    clip["box"] = {{"min", {box->min.x, box->min.y, box->min.z}},
                   {"max", {box->max.x, box->max.y, box->max.z}}};
  }
  clip["polygon"] = settings_.clip.polygon.has_value();
  report["clip"] = clip;
  tools_.addToReport(report);
  const Box3d shown = scene_->shownBounds();
  if (!shown.empty()) {
    report["sceneBounds"] = {{"min", {shown.min.x, shown.min.y, shown.min.z}},
                             {"max", {shown.max.x, shown.max.y, shown.max.z}}};
  }
}

void runViewer(const ViewerOptions& options) {
  ViewerWindow viewer(options);
  viewer.run();
}

}  // namespace pcv::app
