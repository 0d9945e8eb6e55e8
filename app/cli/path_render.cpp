#include "path_render.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "frame_pipeline.hpp"
#include "options/run_report.hpp"
#include "pcv/core/error.hpp"
#include "pcv/core/stopwatch.hpp"
#include "pcv/session/camera_path_file.hpp"
#include "pcv/session/render_converged.hpp"
#include "pcv/session/scene_camera.hpp"

namespace pcv::app {
namespace {

using Clock = SteadyClock;

/// Frames the path takes by default: one per 1/fps of its duration, both ends included.
uint64_t defaultFrameCount(const CameraPath& path, double framesPerSecond) {
  return uint64_t(std::llround(path.durationSeconds() * framesPerSecond)) + 1;
}

/// The path's time of frame `frame`: spread evenly in time, or in distance travelled.
double frameTime(const PathRender& render, uint64_t frame) {
  if (render.flags.timing == "distance" && frame > 0 && frame + 1 < render.frameCount) {
    return render.path->timeAtDistance(double(frame) / double(render.frameCount - 1));
  }
  return render.path->frameTime(frame, render.frameCount);
}

/// Times summed over the frames.
struct PathFigures {
  double renderSeconds = 0.0;    ///< the renderer's own stage times
  double readbackSeconds = 0.0;  ///< the rest of each render call: the image's copy to the host
  double totalSeconds = 0.0;     ///< first frame started to the file complete
};

void report(const PathRender& render, const PathFigures& figures, const FramePipeline& pipeline,
            ImageSize size) {
  const double frames = double(render.frameCount);
  const double perFrameMs = 1000.0 / frames;
  const double renderMs = figures.renderSeconds * perFrameMs;
  const double readbackMs = figures.readbackSeconds * perFrameMs;
  const double writeMs = pipeline.writeSeconds() * perFrameMs;
  const double convertMs = render.sink->convertSeconds() * perFrameMs;
  const double waitMs = pipeline.waitSeconds() * perFrameMs;
  const double fps = frames / figures.totalSeconds;
  const int workers = render.sink->workers();
  // The writers (working side by side) take longer per frame than the renderer: they bound the
  // rate, and the renderer waits for free buffers; otherwise rendering and readback do.
  const bool writeBound =
      pipeline.writeSeconds() / workers > figures.renderSeconds + figures.readbackSeconds;
  runReport()["path"] = {{"file", render.flags.file},
                         {"frames", render.frameCount},
                         {"width", size.width},
                         {"height", size.height},
                         {"seconds", figures.totalSeconds},
                         {"framesPerSecond", fps},
                         {"renderMs", renderMs},
                         {"readbackMs", readbackMs},
                         {"encodeMs", writeMs},
                         {"convertMs", convertMs},
                         {"waitMs", waitMs},
                         {"writer", render.sink->what()},
                         {"writerThreads", workers},
                         {"boundBy", writeBound ? "encode" : "render"}};
  std::fprintf(stderr, "pcv: %llu frames of %dx%d in %.3f s: %.1f frames/s (%s)\n",
               static_cast<unsigned long long>(render.frameCount), size.width, size.height,
               figures.totalSeconds, fps, render.sink->what().c_str());
  std::fprintf(stderr,
               "pcv: per frame: render %.3f ms, readback %.3f ms, encode %.3f ms (colour "
               "conversion %.3f ms) on %d writer thread%s beside the renderer; the renderer "
               "waited %.3f ms for the writer: bound by %s\n",
               renderMs, readbackMs, writeMs, convertMs, workers, workers == 1 ? "" : "s", waitMs,
               writeBound ? "encoding" : "rendering and readback");
}

}  // namespace

void addPathFlags(CLI::App& render, PathFlags& flags) {
  CLI::Option* path =
      render.add_option("--path", flags.file,
                        "Render frames along a camera path: a JSON array of keys "
                        "{\"eye\": [x, y, z], \"yaw\": deg, \"pitch\": deg[, \"time\": s]}; "
                        "--out is then a video (.mp4, .mkv, .mov, .webm) or frame%05d.png");
  render
      .add_option("--frames", flags.frames,
                  "With --path: frames to render, spread over the path from its first key to its "
                  "last (default: its duration at --fps, plus one)")
      ->check(CLI::Range(uint64_t(1), uint64_t(10'000'000)));
  render.add_option("--fps", flags.framesPerSecond, "With --path: the video's frames per second")
      ->check(CLI::Range(0.001, 1000.0))
      ->capture_default_str();
  render
      .add_option("--path-timing", flags.timing,
                  "With --path: keys (frames evenly in time: each key at its time) or distance "
                  "(evenly along the path: constant speed)")
      ->check(CLI::IsMember({"keys", "distance"}))
      ->capture_default_str();
  render
      .add_option("--video-preset", flags.videoPreset,
                  "With --path and an H.264 video: x264's preset, ultrafast (fastest, largest) to "
                  "veryslow")
      ->check(CLI::IsMember({"ultrafast", "superfast", "veryfast", "faster", "fast", "medium",
                             "slow", "slower", "veryslow"}))
      ->capture_default_str();
  for (const char* placed : {"--eye", "--yaw", "--pitch"}) {
    if (CLI::Option* option = render.get_option_no_throw(placed)) path->excludes(option);
  }
}

PathRender preparePathRender(const PathFlags& flags, const std::string& out, ImageSize size) {
  PathRender render{.flags = flags};
  render.path = std::make_unique<CameraPath>(readCameraPath(flags.file));
  render.frameCount =
      flags.frames > 0 ? flags.frames : defaultFrameCount(*render.path, flags.framesPerSecond);
  render.sink = openFrameSink(out, {.width = size.width,
                                    .height = size.height,
                                    .framesPerSecond = flags.framesPerSecond,
                                    .x264Preset = flags.videoPreset});
  return render;
}

void renderPath(PathRender& render, Scene& scene, const Camera& base, bool clipPlanesGiven,
                const RenderSettings& settings, ImageSize size, double streamSeconds) {
  Renderer& renderer = scene.renderer();
  const float aspect = float(size.width) / float(size.height);
  // Two buffers beyond the writers': one being rendered, one waiting for a free writer.
  FramePipeline pipeline(*render.sink, size.width, size.height, render.sink->workers() + 2);
  PathFigures figures;
  const Clock::time_point start = Clock::now();
  for (uint64_t frame = 0; frame < render.frameCount; ++frame) {
    const CameraPose pose = render.path->at(frameTime(render, frame));
    const Camera camera = startCamera(
        scene.kind(), scene.worldBounds(), aspect,
        {.camera = pose.applyTo(base), .eyeGiven = true, .clipPlanesGiven = clipPlanesGiven});
    Image& image = pipeline.acquire();
    const RenderTarget target{image.pixels.data(), size.width, size.height, MemorySpace::Host};
    const Clock::time_point drawn = Clock::now();
    renderConverged(scene, camera, settings, target, streamSeconds);
    const double callSeconds = secondsSince(drawn);
    const double stageSeconds = totalMilliseconds(renderer.lastTimings()) / 1000.0;
    figures.renderSeconds += std::min(stageSeconds, callSeconds);
    figures.readbackSeconds += std::max(0.0, callSeconds - stageSeconds);
    pipeline.submit(image, frame);
  }
  pipeline.finish();
  figures.totalSeconds = secondsSince(start);
  report(render, figures, pipeline, size);
}

}  // namespace pcv::app
