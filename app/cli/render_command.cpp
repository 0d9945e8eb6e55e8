#include "render_command.hpp"

#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>

#include "path_render.hpp"
#include "options/clip_options.hpp"
#include "options/coloring_options.hpp"
#include "options/filter_options.hpp"
#include "gl_render.hpp"
#include "options/option_groups.hpp"
#include "options/quality_options.hpp"
#include "options/run_report.hpp"
#include "options/session_terminal.hpp"
#include "options/stream_flags.hpp"
#include <nlohmann/json.hpp>

#include "pcv/core/image.hpp"
#include "pcv/core/partial_file.hpp"
#include "pcv/core/point_coloring.hpp"
#include "pcv/core/scale_bar.hpp"
#include "pcv/core/error.hpp"
#include "pcv/io/image_file.hpp"
#include "pcv/io/point_cloud_reader.hpp"
#include "pcv/raster/view_setup.hpp"
#include "pcv/session/render_converged.hpp"
#include "pcv/session/scene.hpp"
#include "pcv/session/declared_crs.hpp"
#include "pcv/session/scene_camera.hpp"
#include "pcv/video/video_writer.hpp"

namespace pcv::app {
namespace {

struct RenderOptions {
  DemoCylindersFlags scene;
  RendererFlags renderer;
  ViewFlags view;
  ColoringFlags coloring;          ///< --color, --color-attribute, --color-map, --color-range
  QualityOptions quality;          ///< point size, EDL, HQ, background
  ClipFlags clip;                  ///< --clip-box, --clip-slab, --clip-keep
  PathFlags path;                  ///< --path, --frames, --fps, --path-timing
  FilterFlags filter;              ///< --classes, --exclude-classes, --returns, --range
  ReadFlags read;                  ///< --scan
  StreamLimits stream;             ///< a COPC file: --point-budget, --gpu-memory, --memory
  double streamSeconds = 600.0;    ///< --stream-time-limit
  bool tileBoxes = false;          ///< --tile-boxes
  std::vector<std::string> files;  ///< point cloud files; empty renders the cylinder scene
  std::string out = "pcv.png";
  std::string gl = "none";       // "egl": through the viewer's GL interop path, headless
  std::string interop = "auto";  // with --gl egl: auto, surface, pbo or host
  bool scaleBar = false;         // --scale-bar: draw one (orthographic views)
};

/// A streamed scene's figures for --report: its budget, first image and convergence.
void reportStream(const Scene& scene, const ConvergedRender& render) {
  const StreamedCloud* streamed = scene.streamed();
  if (!streamed) return;
  const StreamingStats& stats = streamed->stats();
  runReport()["stream"] = {{"pointBudget", streamed->pointBudget()},
                           {"residentPoints", streamed->reservedPoints()},
                           {"firstImageSeconds", render.firstImageSeconds},
                           {"firstImagePoints", render.firstImagePoints},
                           {"converged", render.converged},
                           {"seconds", render.seconds},
                           {"nodesResident", stats.nodesResident},
                           {"nodesWanted", stats.nodesWanted},
                           {"pointsDrawn", stats.pointsDrawn},
                           {"pointsInFile", scene.pointCount()}};
}

/// The image of the scene's converged view, drawn into host memory or, with --gl egl, through
/// the viewer's GL interop path.
Image renderImage(const RenderOptions& options, Scene& scene, const Camera& camera,
                  const RenderSettings& settings, ImageSize size) {
  Image image(size.width, size.height);
  const RenderTarget target{image.pixels.data(), size.width, size.height, MemorySpace::Host};
  if (options.gl != "egl") {
    reportStream(scene, renderConverged(scene, camera, settings, target, options.streamSeconds));
    return image;
  }
  if (StreamedCloud* streamed = scene.streamed()) {
    reportStream(scene, renderConverged(scene, camera, settings, target, options.streamSeconds));
    streamed->keepOnlyWanted();  // the GL path draws every resident set
  }
  return renderThroughGl(scene.renderer(),
                         makeViewTransform(camera, size.width, size.height, scene.origin()),
                         settings, options.interop);
}

/// The kind of image --out names, checked with its folder before anything is read.
ImageFileKind checkImageOutput(const std::string& out) {
  // A device or a pipe (/dev/null, /dev/stdout) takes a PNG whatever its name.
  std::error_code error;
  const std::filesystem::file_status status = std::filesystem::status(out, error);
  if (std::filesystem::is_character_file(status) || std::filesystem::is_fifo(status)) {
    checkInPlaceOutput(out);
    return ImageFileKind::Png;
  }
  if (isVideoPath(out)) {
    throw InputError("--out '" + out +
                     "' is a video, which pcv renders along a camera path (--path FILE); one "
                     "image is a .png or a .jpg");
  }
  const ImageFileKind kind = imageFileKindFor(out);
  checkInPlaceOutput(out);
  return kind;
}

void runRender(const RenderOptions& options) {
  const ImageSize size = parseImageSize(options.view.size);  // a bad size fails before converting
  // A path file and its output are checked before anything is loaded.
  std::optional<PathRender> path;
  ImageFileKind imageKind = ImageFileKind::Png;
  if (!options.path.file.empty()) {
    if (options.gl == "egl") throw InputError("--path renders to host memory: leave out --gl egl");
    path = preparePathRender(options.path, options.out, size);
  } else {
    imageKind = checkImageOutput(options.out);
  }
  if (options.scaleBar && options.view.ortho.empty()) {
    throw InputError("--scale-bar needs an orthographic view (--ortho plan|front|side|view)");
  }
  SceneOptions sceneOptions{
      .read = readOptionsFrom(options.read),
      .coloring = coloringOptionsFrom(options.coloring),  // before loading
      .stream = options.stream,
      .convertToCopc =
          [](const std::vector<std::string>& inputs, const std::string& output) {
            convertToCopcCache(inputs, output);
            runReport()["copcCache"]["converted"] = true;
          },
      .report = terminalReport(),
      .tileBoxes = options.tileBoxes};
  const PointFilter filter = pointFilterFrom(options.filter);  // bad flags fail before loading
  requestFilterData(filter, sceneOptions.stream);
  runReport()["copcCache"]["converted"] = false;  // set when the cache is made below
  // LAS or LAZ files too large to read whole stream from their conversion in the COPC cache.
  const ScenePlan plan =
      prepareScene({.files = options.files, .demo = {options.scene.pointCount, options.scene.seed}},
                   sceneOptions);
  if (plan.cachedFrom.empty()) {
    runReport().erase("copcCache");
  } else {
    runReport()["copcCache"]["path"] = plan.files[0];
  }
  std::unique_ptr<Renderer> renderer = createRendererFrom(options.renderer, plan.rendererOptions());
  RenderSettings settings;
  settings.method = methodFrom(options.renderer);
  applyQualityOptions(options.quality, settings);
  settings.clip = clipSettingsFrom(options.clip);
  settings.filter = filter;
  renderer->methodFor(settings);  // an unknown method fails before anything is loaded
  Scene scene(plan, sceneOptions, *renderer);
  checkSceneFilterable(filter, scene);
  for (const FileRead& file : scene.filesRead()) {
    runReport()["files"].push_back(
        {{"path", file.path}, {"points", file.points}, {"readSeconds", file.seconds}});
  }
  if (scene.kind() != SceneKind::Cylinders) {
    reportColoring(scene.coloring());
    if (!scene.hasColor() && options.quality.edl == EdlMode::Auto) {
      runReport()["eyeDomeLighting"] = true;
      std::fprintf(stderr,
                   "pcv: no colour in the data, eye-dome lighting on (--edl off: without)\n");
    }
  }
  if (path) {
    renderPath(*path, scene, cameraFrom(options.view), options.view.nearPlane || options.view.farPlane,
               settings, size, options.streamSeconds);
    runReport()["points"] = renderer->pointCount();
    runReport()["method"] = methodName(renderer->methodFor(settings));
    return;
  }
  const Camera camera =
      startCamera(scene.kind(), scene.worldBounds(), float(size.width) / float(size.height),
                  cameraRequestFrom(options.view), framingSamples(scene));
  Image image = renderImage(options, scene, camera, settings, size);
  if (options.scaleBar) {
    const double aspect = double(size.width) / double(size.height);
    const LengthUnit unit = declaredCoordinateSystem(options.files).lengthUnit();
    const ScaleBar bar =
        scaleBarFor(camera.unitsPerPixel(0.0, double(size.height), aspect), size.width / 4.0, unit);
    drawScaleBar(image, bar, packRgba(255, 255, 255));
    runReport()["scaleBar"] = {
        {"units", bar.lengthUnits},
        {"pixels", bar.lengthPx},
        {"unit", unit.known() ? nlohmann::json(unit.symbol()) : nlohmann::json(nullptr)},
        {"label", bar.label}};
  }
  writeImageFile(options.out, image, imageKind);
  runReport()["points"] = renderer->pointCount();
  runReport()["method"] = methodName(renderer->methodFor(settings));
  runReport()["milliseconds"] = totalMilliseconds(renderer->lastTimings());
  runReport()["out"] = options.out;
  if (scene.streamed()) {
    std::fprintf(stderr, "pcv: method %s, %.3f ms; wrote %s\n",
                 methodName(renderer->methodFor(settings)),
                 totalMilliseconds(renderer->lastTimings()), options.out.c_str());
    return;
  }
  std::fprintf(stderr, "pcv: %llu points, method %s, %.3f ms; wrote %s\n",
               static_cast<unsigned long long>(renderer->pointCount()),
               methodName(renderer->methodFor(settings)),
               totalMilliseconds(renderer->lastTimings()), options.out.c_str());
}

}  // namespace

void addRenderCommand(CLI::App& cli) {
  auto options = std::make_shared<RenderOptions>();
  CLI::App* render =
      cli.add_subcommand("render", "Render a scene to a PNG or JPEG without a window");
  addDemoCylindersFlags(*render, options->scene);
  addRendererFlags(*render, options->renderer);
  addViewFlags(*render, options->view, "Image size");
  addPathFlags(*render, options->path);
  addColoringFlags(*render, options->coloring);
  addQualityOptions(*render, options->quality);
  addClipFlags(*render, options->clip);
  addFilterFlags(*render, options->filter);
  addReadFlags(*render, options->read);
  addStreamFlags(*render, options->stream);
  addStreamTimeLimit(*render, options->streamSeconds);
  render
      ->add_option("--out", options->out,
                   "Output image: .png, or .jpg/.jpeg where built with libturbojpeg; with "
                   "--path a video or a numbered image pattern")
      ->capture_default_str();
  render->add_flag("--tile-boxes", options->tileBoxes,
                   "A dataset (a folder, a .vpc, several tiles): outline each tile's header box");
  render->add_flag("--scale-bar", options->scaleBar,
                   "With --ortho: draw a scale bar (world units) at the bottom left");
  render
      ->add_option("--gl", options->gl,
                   "none: render to host memory; egl: through GL interop in a headless context")
      ->check(CLI::IsMember({"none", "egl"}))
      ->capture_default_str();
  render->add_option("--interop", options->interop, "With --gl egl: auto, surface, pbo or host")
      ->check(CLI::IsMember({"auto", "surface", "pbo", "host"}))
      ->capture_default_str();
  render->add_option("files", options->files,
                     "Point cloud files (PLY, LAS, LAZ, PCD, E57, XYZ/TXT/CSV/PTS), merged, or one "
                     "COPC file, streamed; none: cylinders");
  addReportOption(*render);
  render->callback([options] { runRender(*options); });
}

}  // namespace pcv::app
