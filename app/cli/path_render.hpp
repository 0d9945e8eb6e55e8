/// @brief `pcv render --path P.json --frames N --out frame%05d.png|movie.mp4`: the scene loaded
/// once, N frames along a camera path drawn by the same renderer, written on worker threads
/// while the next frame renders. Says the frame rate, split into render, readback and encode.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>

#include "frame_sinks.hpp"
#include "options/cli_options.hpp"
#include "pcv/core/camera.hpp"
#include "pcv/core/camera_path.hpp"
#include "pcv/raster/render_settings.hpp"
#include "pcv/session/scene.hpp"

namespace pcv::app {

struct PathFlags {
  std::string file;                      ///< --path: the camera path JSON; empty: one image
  uint64_t frames = 0;                   ///< --frames; 0: the path's duration at --fps, plus one
  double framesPerSecond = 30;           ///< --fps: of the video, and of the path's clock
  std::string timing = "keys";           ///< --path-timing keys|distance
  std::string videoPreset = "veryfast";  ///< --video-preset: x264's speed/size trade-off
};

/// Adds --path, --frames, --fps and --path-timing to `render`; --path excludes --eye, --yaw
/// and --pitch (the path places the camera).
void addPathFlags(CLI::App& render, PathFlags& flags);

/// What is checked before the scene is loaded: the path read, the output opened.
struct PathRender {
  PathFlags flags;
  std::unique_ptr<CameraPath> path;
  std::unique_ptr<FrameSink> sink;
  uint64_t frameCount = 0;
};

/// Reads the path file and opens `out` (a video, or a PNG pattern). Throws InputError
/// (CameraPathError for the file) or UnavailableError (a video without FFmpeg).
PathRender preparePathRender(const PathFlags& flags, const std::string& out, ImageSize size);

/// Renders and writes every frame. `base` gives what the path does not (field of view, up
/// axis, --near/--far when `clipPlanesGiven`); each frame's camera is then made as pcv render
/// makes it from --eye, --yaw and --pitch, so frame k is the image of that command at frame
/// k's pose. Adds the figures to --report under "path" and says them on stderr.
void renderPath(PathRender& render, Scene& scene, const Camera& base, bool clipPlanesGiven,
                const RenderSettings& settings, ImageSize size, double streamSeconds);

}  // namespace pcv::app
