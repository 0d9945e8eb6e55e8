#include "streamed_render.hpp"

#include <chrono>
#include <cstdio>
#include <thread>

#include <nlohmann/json.hpp>

#include "coloring_options.hpp"
#include "run_report.hpp"
#include "pcv/core/camera_framing.hpp"
#include "pcv/raster/view_setup.hpp"

namespace pcv::app {
namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

Camera cameraOn(const CopcFile& file, const ViewFlags& flags, int widthPx, int heightPx) {
  Camera camera = cameraFrom(flags);
  const Box3d bounds = file.statedBounds();
  if (!flags.eyeGiven) {
    camera = frameBounds(bounds, float(widthPx) / float(heightPx), {}, camera);
  } else if (!flags.nearPlane && !flags.farPlane) {
    fitClipPlanes(camera, bounds);  // a camera placed by hand still sees the whole cloud
  }
  return camera;
}

void reportErrors(StreamedCloud& cloud) {
  for (const std::string& error : cloud.takeErrors()) {
    std::fprintf(stderr, "pcv: error: %s\n", error.c_str());
  }
}

}  // namespace

Image renderStreamed(const StreamedRenderRequest& request, Renderer& renderer,
                     const std::function<Image(const ViewTransform&)>& drawThroughGl) {
  const Clock::time_point start = Clock::now();
  auto file = std::make_shared<const CopcFile>(request.path, request.read);
  const Camera camera = cameraOn(*file, request.view, request.widthPx, request.heightPx);
  StreamedCloud cloud(file, renderer, request.streaming);
  reportColoring(cloud.coloring());
  if (!file->hasColor() && request.edlAuto) {
    runReport()["eyeDomeLighting"] = true;
    std::fprintf(stderr, "pcv: no colour in the data, eye-dome lighting on (--edl off: without)\n");
  }
  const ViewTransform view =
      makeViewTransform(camera, request.widthPx, request.heightPx, cloud.origin());
  Image image(request.widthPx, request.heightPx);
  const RenderTarget target{image.pixels.data(), request.widthPx, request.heightPx,
                            MemorySpace::Host};
  // The first frame draws what is resident at once (the root): the time a viewer shows it.
  std::vector<PointSetId> sets = cloud.update(camera, request.widthPx, request.heightPx);
  renderer.render(sets, view, request.settings, target);
  std::fprintf(stderr, "pcv: first image after %.3f s (%llu points)\n", secondsSince(start),
               static_cast<unsigned long long>(cloud.stats().pointsDrawn));
  nlohmann::json& streamed = runReport()["stream"];
  streamed["pointBudget"] = request.streaming.pointBudget;
  streamed["residentBytes"] = request.streaming.gpuMemoryBytes;
  streamed["firstImageSeconds"] = secondsSince(start);
  streamed["firstImagePoints"] = cloud.stats().pointsDrawn;
  // Then only the selection runs, taking what the decoders finish, until the view converges:
  // a headless render has no frames to show in between.
  while (!cloud.converged() && secondsSince(start) < request.timeLimitSeconds) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    sets = cloud.update(camera, request.widthPx, request.heightPx);
    reportErrors(cloud);
  }
  reportErrors(cloud);
  const StreamingStats& stats = cloud.stats();
  std::fprintf(stderr, "pcv: %s after %.3f s: %zu of %zu nodes, %llu of %llu points drawn\n",
               cloud.converged() ? "converged" : "stopped unconverged", secondsSince(start),
               stats.nodesResident, stats.nodesWanted,
               static_cast<unsigned long long>(stats.pointsDrawn),
               static_cast<unsigned long long>(file->pointCount()));
  streamed["converged"] = cloud.converged();
  streamed["seconds"] = secondsSince(start);
  streamed["nodesResident"] = stats.nodesResident;
  streamed["nodesWanted"] = stats.nodesWanted;
  streamed["pointsDrawn"] = stats.pointsDrawn;
  streamed["pointsInFile"] = file->pointCount();
  if (drawThroughGl) {
    cloud.keepOnlyWanted();  // the GL path draws every resident set
    return drawThroughGl(view);
  }
  renderer.render(sets, view, request.settings, target);
  return image;
}

}  // namespace pcv::app
