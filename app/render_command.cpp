#include "render_command.hpp"

#include <cstdio>
#include <memory>

#include "cli_options.hpp"
#include "coloring_options.hpp"
#include "gl_render.hpp"
#include "progress_bar.hpp"
#include "quality_options.hpp"
#include "read_flags.hpp"
#include "pcv/core/camera.hpp"
#include "pcv/core/camera_framing.hpp"
#include "pcv/core/point_coloring.hpp"
#include "pcv/core/image.hpp"
#include "pcv/io/point_cloud_reader.hpp"
#include "pcv/io/png_writer.hpp"
#include "pcv/raster/backend.hpp"
#include "pcv/raster/view_setup.hpp"
#include "pcv/scene/cylinders.hpp"

namespace pcv::app {
namespace {

struct RenderOptions {
  uint64_t pointCount = kSeedPointCount;
  uint64_t seed = 1;
  std::string size = "1280x720";
  std::string eye = "-3,0,0";
  float yawDegrees = 0.0f;
  float pitchDegrees = 0.0f;
  std::string backend = "auto";
  std::string method;
  std::string out = "pcv.png";
  std::string gl = "none";         // "egl": through the viewer's GL interop path, headless
  std::string interop = "auto";    // with --gl egl: auto, surface, pbo or host
  std::vector<std::string> files;  ///< point cloud files; empty renders the cylinder scene
  ColoringFlags coloring;          ///< --color, --color-attribute, --color-map, --color-range
  bool eyeGiven = false;           ///< --eye was given: do not frame the camera on the files
  QualityOptions quality;          ///< point size, EDL, HQ, background
  ReadFlags read;                  ///< --scan
};

/// Loads and merges `files` into one cloud with one origin, with a progress bar for slow loads.
PointCloud loadFiles(const std::vector<std::string>& files, const ReadOptions& read) {
  PointCloud merged;
  for (const std::string& file : files) {
    LoadProgress progress;
    PointCloud cloud;
    {
      ProgressBar bar(progress, "loading " + file);
      cloud = readPointCloud(file, read, &progress, nullptr);
    }
    std::fprintf(stderr, "pcv: %s: %llu points\n", file.c_str(),
                 static_cast<unsigned long long>(cloud.size()));
    appendPointCloud(merged, cloud);
  }
  return merged;
}

void runRender(const RenderOptions& options) {
  const ImageSize size = parseImageSize(options.size);
  Camera camera =
      Camera::lookingFrom(parseVector3(options.eye), options.yawDegrees, options.pitchDegrees);

  std::unique_ptr<Backend> backend = createBackend(options.backend);
  std::string whyNotCuda;
  if (options.backend == "auto" && backend->name() == "cpu" && !cudaAvailable(&whyNotCuda)) {
    std::fprintf(stderr, "pcv: using the cpu backend (%s)\n", whyNotCuda.c_str());
  } else {
    std::fprintf(stderr, "pcv: using the %s backend (%s)\n", backend->name().c_str(),
                 backend->deviceDescription().c_str());
  }
  RenderSettings settings;
  settings.method = resolveMethod(*backend, options.method);

  glm::dvec3 origin(0.0);
  uint64_t pointCount = options.pointCount;
  bool cloudHasColor = true;  // the cylinders' colours are their own
  if (options.files.empty()) {
    backend->generateCylinders(makeCylinderScene(options.seed), options.pointCount);
  } else {
    const ColoringOptions coloring = coloringOptionsFrom(options.coloring);  // before loading
    PointCloud cloud = loadFiles(options.files, readOptionsFrom(options.read));
    UninitializedVector<Point> coloured;
    const Coloring used = coloredPoints(cloud, coloring, coloured);
    if (!used.note.empty()) {
      std::fprintf(stderr, "pcv: %s, coloured by %s\n", used.note.c_str(),
                   colorModeName(used.mode).c_str());
    }
    if (!used.attribute.empty()) {
      std::fprintf(stderr, "pcv: %s mapped with %s from %.6g to %.6g\n", used.attribute.c_str(),
                   colorMapName(used.map).c_str(), used.range.low, used.range.high);
    }
    if (!options.eyeGiven) {
      camera = frameBounds(cloud.worldBounds(), float(size.width) / float(size.height));
    }
    origin = cloud.origin;
    pointCount = cloud.size();
    backend->setPoints(coloured);
    cloudHasColor = cloud.hasColor;
  }
  applyQualityOptions(options.quality, cloudHasColor, settings);
  if (settings.quality.edl && options.quality.edl == "auto") {
    std::fprintf(stderr, "pcv: no colour in the data, eye-dome lighting on (--edl off: without)\n");
  }

  const ViewTransform view = makeViewTransform(camera, size.width, size.height, origin);

  Image image(size.width, size.height);
  if (options.gl == "egl") {
    image = renderThroughGl(*backend, view, settings, options.interop);
  } else {
    backend->render(view, settings,
                    RenderTarget{image.pixels.data(), size.width, size.height, MemorySpace::Host});
  }
  writePng(options.out, image);
  std::fprintf(stderr, "pcv: %llu points, method %s, %.3f ms; wrote %s\n",
               static_cast<unsigned long long>(pointCount), settings.method.c_str(),
               totalMilliseconds(backend->lastTimings()), options.out.c_str());
}

}  // namespace

void addRenderCommand(CLI::App& cli) {
  auto options = std::make_shared<RenderOptions>();
  CLI::App* render = cli.add_subcommand("render", "Render a scene to a PNG without a window");
  render->add_option("--points", options->pointCount, "Number of cylinder points")
      ->capture_default_str();
  render->add_option("--seed", options->seed, "Random seed of the cylinder scene")
      ->capture_default_str();
  render->add_option("--size", options->size, "Image size WIDTHxHEIGHT")->capture_default_str();
  render->add_option("--eye", options->eye, "Camera position x,y,z (default: frame the files)")
      ->capture_default_str()
      ->each([options](const std::string&) { options->eyeGiven = true; });
  render->add_option("--yaw", options->yawDegrees, "Camera yaw in degrees (0 looks along +x)")
      ->capture_default_str();
  render->add_option("--pitch", options->pitchDegrees, "Camera pitch in degrees (-90..90)")
      ->capture_default_str();
  render->add_option("--backend", options->backend, "auto, cuda or cpu")
      ->check(CLI::IsMember(backendNames()))
      ->capture_default_str();
  render->add_option("--method", options->method,
                     "Rasterization method: compact (default, fastest), earlyz (cuda), packed, "
                     "seed (the original two passes)");
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
                     "Point cloud files (PLY, LAS, PCD, E57, XYZ/TXT/CSV/PTS), merged; none: "
                     "cylinders");
  addReadFlags(*render, options->read);
  addColoringFlags(*render, options->coloring);
  addQualityOptions(*render, options->quality);
  render->callback([options] { runRender(*options); });
}

}  // namespace pcv::app
