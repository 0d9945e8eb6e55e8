#include "pcv/session/render_converged.hpp"

#include <chrono>
#include <cstdio>
#include <thread>

#include "pcv/core/stopwatch.hpp"
#include "pcv/raster/view_setup.hpp"

namespace pcv {
namespace {

using Clock = SteadyClock;

void reportErrors(Scene& scene) {
  for (const std::string& error : scene.takeErrors()) scene.report().fail(error);
  for (const std::string& warning : scene.takeWarnings()) scene.report().warn(warning);
}

}  // namespace

ConvergedRender renderConverged(Scene& scene, const Camera& camera, const RenderSettings& settings,
                                const RenderTarget& target, double timeLimitSeconds) {
  const Clock::time_point start = Clock::now();
  Renderer& renderer = scene.renderer();
  const int width = target.width, height = target.height;
  const ViewTransform view = makeViewTransform(camera, width, height, scene.origin());
  ConvergedRender result;
  // The first frame draws what is resident at once (a stream's root): the time a viewer shows
  // it.
  renderer.render(scene.update(camera, width, height), view, settings, target);
  result.firstImageSeconds = secondsSince(start);
  StreamedCloud* streamed = scene.streamed();
  result.firstImagePoints = streamed ? streamed->stats().pointsDrawn : renderer.pointCount();
  if (!streamed) {
    result.seconds = result.firstImageSeconds;
    return result;
  }
  char line[256];
  std::snprintf(line, sizeof line, "first image after %.3f s (%llu points)",
                result.firstImageSeconds,
                static_cast<unsigned long long>(streamed->stats().pointsDrawn));
  scene.report().say(line);
  // Then only the selection runs, taking what the decoders finish, until the view converges:
  // a headless render has no frames to show in between.
  SetSelection sets = scene.update(camera, width, height);
  while (!scene.converged() && secondsSince(start) < timeLimitSeconds) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    sets = scene.update(camera, width, height);
    reportErrors(scene);
  }
  reportErrors(scene);
  result.converged = scene.converged();
  const StreamingStats& stats = streamed->stats();
  std::snprintf(line, sizeof line, "%s after %.3f s: %zu of %zu nodes, %llu of %llu points drawn",
                result.converged ? "converged" : "stopped unconverged", secondsSince(start),
                stats.nodesResident, stats.nodesWanted,
                static_cast<unsigned long long>(stats.pointsDrawn),
                static_cast<unsigned long long>(scene.pointCount()));
  scene.report().say(line);
  renderer.render(sets, view, settings, target);
  result.seconds = secondsSince(start);
  return result;
}

}  // namespace pcv
