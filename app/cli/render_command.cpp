#include "render_command.hpp"

#include <cstdio>
#include <memory>

#include "clip_options.hpp"
#include "copc_cache.hpp"
#include "coloring_options.hpp"
#include "gl_render.hpp"
#include "option_groups.hpp"
#include "progress_bar.hpp"
#include "quality_options.hpp"
#include "run_report.hpp"
#include "stream_flags.hpp"
#include "streamed_render.hpp"
#include <nlohmann/json.hpp>

#include "pcv/core/camera_framing.hpp"
#include "pcv/core/image.hpp"
#include "pcv/core/number_text.hpp"
#include "pcv/core/point_coloring.hpp"
#include "pcv/io/png_writer.hpp"
#include "pcv/io/point_cloud_reader.hpp"
#include "pcv/raster/view_setup.hpp"
#include "pcv/scene/cylinder_producer.hpp"

namespace pcv::app {
namespace {

struct RenderOptions {
  DemoSceneFlags scene;
  RendererFlags renderer;
  ViewFlags view;
  ColoringFlags coloring;          ///< --color, --color-attribute, --color-map, --color-range
  QualityOptions quality;          ///< point size, EDL, HQ, background
  ClipFlags clip;                  ///< --clip-box, --clip-slab, --clip-keep
  ReadFlags read;                  ///< --scan
  StreamFlags stream;              ///< a COPC file: --point-budget, --gpu-memory, --memory
  double streamSeconds = 600.0;    ///< --stream-time-limit
  std::vector<std::string> files;  ///< point cloud files; empty renders the cylinder scene
  std::string out = "pcv.png";
  std::string gl = "none";       // "egl": through the viewer's GL interop path, headless
  std::string interop = "auto";  // with --gl egl: auto, surface, pbo or host
};

/// Loads and merges `files` into one cloud with one origin, with a progress bar for slow loads;
/// warnings go to stderr.
PointCloud loadFiles(const std::vector<std::string>& files, const ReadOptions& read,
                     Box3d& worldBounds) {
  PointCloud merged;
  for (const std::string& file : files) {
    LoadProgress progress;
    FileSummary summary;
    PointCloud cloud;
    {
      ProgressBar bar(progress, "loading " + file);
      cloud = readPointCloud(file, read, &progress, &summary);
    }
    for (const std::string& warning : summary.warnings) {
      std::fprintf(stderr, "pcv: warning: %s\n", warning.c_str());
    }
    std::fprintf(stderr, "pcv: %s: %llu points\n", file.c_str(),
                 static_cast<unsigned long long>(cloud.size()));
    runReport()["files"].push_back({{"path", file}, {"points", cloud.size()}});
    worldBounds.extend(summary.worldBounds);
    appendPointCloud(merged, cloud);
  }
  return merged;
}

/// Adds the files, coloured as the flags ask, to the renderer; returns their origin and bounds.
glm::dvec3 addFiles(const RenderOptions& options, Renderer& renderer, Box3d& worldBounds) {
  const ColoringOptions coloring = coloringOptionsFrom(options.coloring);  // before loading
  const PointCloud cloud = loadFiles(options.files, readOptionsFrom(options.read), worldBounds);
  UninitializedVector<Point> coloured;
  const Coloring used = coloredPoints(cloud, coloring, coloured);
  reportColoring(used);
  LayoutProgress progress;
  {
    ProgressBar bar([&progress](double) { return ProgressState{.fraction = progress.fraction()}; },
                    "laying out " + countText(cloud.size()) + " points");
    renderer.addSet(coloured, {.hasColor = cloud.hasColor, .progress = &progress});
  }
  if (!cloud.hasColor && options.quality.edl == "auto") {
    runReport()["eyeDomeLighting"] = true;
    std::fprintf(stderr, "pcv: no colour in the data, eye-dome lighting on (--edl off: without)\n");
  }
  return cloud.origin;
}

/// A COPC file streamed from its octree: the nodes its view wants, converged.
Image renderStreamedFile(const RenderOptions& options, Renderer& renderer,
                         const RenderSettings& settings, ImageSize size) {
  std::vector<std::string> notes;
  StreamedRenderRequest request{.path = options.files[0],
                                .read = readOptionsFrom(options.read),
                                .streaming = streamingOptionsFrom(options.stream, renderer, notes),
                                .view = options.view,
                                .widthPx = size.width,
                                .heightPx = size.height,
                                .settings = settings,
                                .edlAuto = options.quality.edl == "auto",
                                .timeLimitSeconds = options.streamSeconds};
  request.streaming.coloring = coloringOptionsFrom(options.coloring);
  for (const std::string& note : notes) std::fprintf(stderr, "pcv: %s\n", note.c_str());
  if (options.gl != "egl") return renderStreamed(request, renderer);
  return renderStreamed(request, renderer, [&](const ViewTransform& view) {
    return renderThroughGl(renderer, view, settings, options.interop);
  });
}

/// The figures of the image written, for --report.
void reportRender(Renderer& renderer, const RenderSettings& settings, const std::string& out) {
  runReport()["points"] = renderer.pointCount();
  runReport()["method"] = methodName(renderer.methodFor(settings));
  runReport()["milliseconds"] = totalMilliseconds(renderer.lastTimings());
  runReport()["out"] = out;
}

void runRender(RenderOptions options) {
  const ImageSize size = parseImageSize(options.view.size);  // a bad size fails before converting
  // LAS or LAZ files too large to read whole stream from their conversion in the COPC cache.
  if (!options.stream.inCore) {
    if (auto cached = copcCacheFor(options.files, options.stream.memoryBytes)) {
      options.files = {*cached};
    }
  }
  Camera camera = cameraFrom(options.view);
  // A streamed cloud keeps the compact layout only (8 bytes a point): three times the points
  // in the GPU budget, and a headless render picks nothing.
  const bool streamed = streams(options.files, options.stream);
  std::unique_ptr<Renderer> renderer = createRendererFrom(
      options.renderer,
      streamed ? RendererOptions{.storage = PointStorage::Compact} : RendererOptions{});
  RenderSettings settings;
  settings.method = methodFrom(options.renderer);
  applyQualityOptions(options.quality, settings);
  settings.clip = clipSettingsFrom(options.clip);
  renderer->methodFor(settings);  // an unknown method fails before anything is loaded
  runReport()["eyeDomeLighting"] = options.quality.edl == "on";
  if (streamed) {
    writePng(options.out, renderStreamedFile(options, *renderer, settings, size));
    reportRender(*renderer, settings, options.out);
    std::fprintf(stderr, "pcv: method %s, %.3f ms; wrote %s\n",
                 methodName(renderer->methodFor(settings)),
                 totalMilliseconds(renderer->lastTimings()), options.out.c_str());
    return;
  }

  glm::dvec3 origin(0.0);
  if (options.files.empty()) {
    // Laying out hundreds of millions of points takes minutes on the CPU: say how far it is.
    LayoutProgress progress;
    ProgressBar bar([&progress](double) { return ProgressState{.fraction = progress.fraction()}; },
                    "laying out " + countText(options.scene.pointCount) + " cylinder points");
    renderer->addSet(
        CylinderProducer(makeCylinderScene(options.scene.seed), options.scene.pointCount),
        {.progress = &progress});
  } else {
    Box3d bounds;
    origin = addFiles(options, *renderer, bounds);
    if (!options.view.eyeGiven) {
      camera = frameBounds(bounds, float(size.width) / float(size.height), {}, camera);
    }
    // A camera placed by hand still sees the whole cloud, unless --near/--far say otherwise.
    if (options.view.eyeGiven && !options.view.nearPlane && !options.view.farPlane) {
      fitClipPlanes(camera, bounds);
    }
  }
  const ViewTransform view = makeViewTransform(camera, size.width, size.height, origin);
  Image image(size.width, size.height);
  if (options.gl == "egl") {
    image = renderThroughGl(*renderer, view, settings, options.interop);
  } else {
    renderer->render(view, settings,
                     RenderTarget{image.pixels.data(), size.width, size.height, MemorySpace::Host});
  }
  writePng(options.out, image);
  reportRender(*renderer, settings, options.out);
  std::fprintf(stderr, "pcv: %llu points, method %s, %.3f ms; wrote %s\n",
               static_cast<unsigned long long>(renderer->pointCount()),
               methodName(renderer->methodFor(settings)),
               totalMilliseconds(renderer->lastTimings()), options.out.c_str());
}

}  // namespace

void addRenderCommand(CLI::App& cli) {
  auto options = std::make_shared<RenderOptions>();
  CLI::App* render = cli.add_subcommand("render", "Render a scene to a PNG without a window");
  addDemoSceneFlags(*render, options->scene);
  addRendererFlags(*render, options->renderer);
  addViewFlags(*render, options->view, "Image size");
  addColoringFlags(*render, options->coloring);
  addQualityOptions(*render, options->quality);
  addClipFlags(*render, options->clip);
  addReadFlags(*render, options->read);
  addStreamFlags(*render, options->stream);
  render
      ->add_option("--stream-time-limit", options->streamSeconds,
                   "COPC: seconds to wait for the view to converge before drawing what is there")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  render->add_option("--out", options->out, "Output PNG path")->capture_default_str();
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
