#include "viewer/view_command.hpp"

#include <cstdlib>
#include <memory>

#include "options/clip_options.hpp"
#include "options/coloring_options.hpp"
#include "options/command_line.hpp"
#include "options/filter_options.hpp"
#include "options/option_groups.hpp"
#include "options/quality_options.hpp"
#include "options/render_arguments.hpp"
#include "options/run_report.hpp"
#include "options/session_terminal.hpp"
#include "options/stream_flags.hpp"
#include "pcv/core/error.hpp"
#include "pcv/io/copc_writer.hpp"
#include "pcv/session/scene.hpp"
#include "viewer/viewer.hpp"

namespace pcv::app {
namespace {

/// The command line as typed; turned into ViewerOptions once parsed.
struct ViewFlagsAll {
  DemoCylindersFlags scene;
  RendererFlags renderer;
  ViewFlags view;
  ColoringFlags coloring;
  QualityOptions quality;
  ClipFlags clip;
  FilterFlags filter;
  ReadFlags read;
  StreamLimits stream;
  ViewerOptions viewer;  // the options without a group of their own
};

ViewerOptions viewerOptionsFrom(const ViewFlagsAll& flags) {
  ViewerOptions options = flags.viewer;
  options.demo = {flags.scene.pointCount, flags.scene.seed};
  options.backend = flags.renderer.backend;
  options.vulkanDevice = flags.renderer.vulkanDevice;
  options.render.method = methodFrom(flags.renderer);
  applyQualityOptions(flags.quality, options.render);
  options.render.clip = clipSettingsFrom(flags.clip);
  options.render.filter = pointFilterFrom(flags.filter);
  options.coloring = coloringOptionsFrom(flags.coloring);
  options.read = readOptionsFrom(flags.read);
  options.stream = flags.stream;
  // The viewer's legend filters at any time: its points always carry what filters read.
  requestFilterData(options.render.filter, options.stream);
  options.stream.filterData = true;
  if (!flags.view.ortho.empty()) options.orthoStart = cameraRequestFrom(flags.view);
  const ImageSize windowSize = parseImageSize(flags.view.size);
  options.widthPx = windowSize.width;
  options.heightPx = windowSize.height;
  if (flags.view.eyeGiven || flags.view.nearPlane || flags.view.farPlane ||
      flags.view.yawDegrees != 0.0 || flags.view.pitchDegrees != 0.0) {
    options.camera = cameraFrom(flags.view);
  }
  options.clipPlanesGiven = flags.view.nearPlane || flags.view.farPlane;
  options.upAxis = upAxisFrom(flags.view);
  return options;
}

/// Plans the scene of `options.files` before the window opens: LAS or LAZ files too large to
/// read whole stream from their conversion in the COPC cache (converted here, with the
/// terminal's progress bar). An input that cannot be opened does not keep the window shut: its
/// error goes to options.startupErrors, for the Error window, and the others open.
void prepareStartFiles(ViewerOptions& options) {
  const auto prepare = [&options](const std::vector<std::string>& files) {
    const ScenePlan plan = prepareScene(
        {.files = files},
        {.stream = options.stream,
         .convertToCopc = [](const std::vector<std::string>& inputs,
                             const std::string& output) { convertToCopcCache(inputs, output); },
         .report = terminalReport()});
    options.files = plan.cachedFrom.empty() ? files : plan.files;
  };
  std::string together;
  try {
    prepare(options.files);
    return;
  } catch (const ConversionCancelled&) {
    throw;  // Ctrl+C: the viewer does not open
  } catch (const Error& error) {
    together = error.what();
  }
  // Which inputs fail on their own (headers only): they are left out and said.
  std::vector<std::string> openable;
  for (const std::string& file : options.files) {
    try {
      planScene({.files = {file}}, options.stream);
      openable.push_back(file);
    } catch (const Error& error) {
      options.startupErrors.push_back(error.what());
    }
  }
  if (options.startupErrors.empty()) {
    // Each opens alone but not with the others (tiles in different coordinate systems).
    options.startupErrors.push_back(together);
    options.files.clear();
    return;
  }
  options.files.clear();
  if (openable.empty()) return;
  try {
    prepare(openable);
  } catch (const ConversionCancelled&) {
    throw;
  } catch (const Error& error) {
    options.startupErrors.push_back(error.what());
    options.files.clear();
  }
}

/// Refuses, before any file is read, a window that cannot open: GLFW needs an X server (DISPLAY)
/// or a Wayland compositor (WAYLAND_DISPLAY). Its own error would name X11 alone, with no hint
/// that pcv renders without a display.
void requireDisplay(const std::vector<std::string>& files) {
  const auto named = [](const char* variable) {
    const char* value = std::getenv(variable);
    return value && *value;
  };
  if (named("DISPLAY") || named("WAYLAND_DISPLAY")) return;
  const std::string file = files.empty() ? std::string("FILE") : shellQuoted(files.front());
  throw StatusError(kNoDisplayStatus,
                    "no display to open the viewer on (DISPLAY is not set); without one, render "
                    "an image: pcv render " +
                        file + " --out image.png");
}

}  // namespace

void addViewCommand(CLI::App& cli) {
  auto flags = std::make_shared<ViewFlagsAll>();
  ViewerOptions& o = flags->viewer;
  CLI::App* view = cli.add_subcommand("view", "Open the interactive viewer (the default)");
  addDemoCylindersFlags(*view, flags->scene);
  addRendererFlags(*view, flags->renderer);
  addViewFlags(*view, flags->view, "Window size");
  addColoringFlags(*view, flags->coloring);
  addQualityOptions(*view, flags->quality);
  addClipFlags(*view, flags->clip);
  addFilterFlags(*view, flags->filter);
  addReadFlags(*view, flags->read);
  addStreamFlags(*view, flags->stream);
  view->add_option("--interop", o.interop,
                   "How frames reach GL: auto, surface (CUDA writes the texture), pbo, memory "
                   "(Vulkan draws into memory GL imported), host (through host memory)")
      ->check(CLI::IsMember({"auto", "surface", "pbo", "host", "memory"}))
      ->capture_default_str();
  view->add_option("--gl-context", o.glContext,
                   "Where the window's GL context comes from: native (GLX on X11) or egl (the "
                   "GPU driver's GL on an X server without its GLX)")
      ->check(CLI::IsMember({"native", "egl"}))
      ->capture_default_str();
  view->add_option("--frames", o.frames, "Exit after this many frames (0: run until closed)")
      ->capture_default_str();
  view->add_option(
      "--script", o.script,
      "Timed input events (key_down W, mouse_move x y, resize w h, screenshot f.png ...)");
  view->add_option("--frame-dt", o.frameDtSeconds,
                   "Seconds each frame advances the clock (0: real time); makes scripts exact")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  view->add_option("--screenshot-dir", o.screenshotDir, "Folder F12 writes PNGs to")
      ->capture_default_str();
  view->add_option("files", o.files,
                   "Point cloud files (PLY, LAS, LAZ, PCD, E57, XYZ/TXT/CSV/PTS), loaded in the "
                   "background and merged, or one COPC file, streamed; none: cylinders");
  addReportOption(*view);
  view->callback([flags] {
    ViewerOptions options = viewerOptionsFrom(*flags);
    requireDisplay(options.files);
    prepareStartFiles(options);
    runViewer(options);
    writeRunReport();
  });
}

}  // namespace pcv::app
