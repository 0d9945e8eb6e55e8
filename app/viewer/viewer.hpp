/// @brief The interactive viewer (`pcv`, `pcv view`): the seed's window, scene and controls,
/// over any backend, through the cheapest interop path this machine has.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pcv/core/camera.hpp"
#include "pcv/core/point_coloring.hpp"
#include "pcv/raster/render_settings.hpp"
#include "pcv/session/stream_limits.hpp"
#include "pcv/session/scene_camera.hpp"
#include "pcv/session/scene_model.hpp"

namespace pcv::app {

struct ViewerOptions {
  DemoCylinders demo;                ///< the cylinders, shown when no file is given
  std::string backend = "auto";      ///< auto, cuda, vulkan, cpu
  std::string vulkanDevice;          ///< --vulkan-device: "" the best GPU
  std::string interop = "auto";      ///< auto, surface, pbo, memory, host
  std::string glContext = "native";  ///< native (GLX on X11) or egl: the window's GL context
  int widthPx = 1280;                ///< initial window size (screen coordinates)
  int heightPx = 720;
  /// Where the camera starts (--eye, --yaw, --pitch, --near, --far); empty: the seed's view, or
  /// framing the files. With files, a given camera keeps near and far from the scene's size
  /// unless they were given too.
  std::optional<Camera> camera;
  bool clipPlanesGiven = false;  ///< --near or --far was given
  /// --ortho: the window starts in that orthographic view, framed on the scene as pcv render
  /// frames it (pcv::startCamera) unless the eye was given.
  std::optional<CameraRequest> orthoStart;
  UpAxis upAxis = UpAxis::Z;        ///< --up: the world axis that points up (the panel too)
  uint64_t frames = 0;              ///< exit after this many frames; 0 = run until closed
  std::string script;               ///< input script path (see input_script.hpp)
  double frameDtSeconds = 0.0;      ///< > 0: simulated clock, each frame advances this much
  std::string screenshotDir = ".";  ///< where F12 writes
  RenderSettings render;            ///< method, background, quality; EDL auto decided per set
  std::vector<std::string> files;   ///< point cloud files, loaded in the background and merged;
                                    ///< empty shows the cylinder scene
  /// Inputs that could not be opened before the window (not a point cloud, an empty folder, a
  /// header the reader refuses): shown in the Error window beside the files that did open (with
  /// none, over an empty scene).
  std::vector<std::string> startupErrors;
  ColoringOptions coloring;  ///< how loaded files are coloured (the panel changes it)
  ReadOptions read;          ///< what to read of each file (--scan; the panel changes it)
  StreamLimits stream;       ///< how a COPC file is streamed (--point-budget ...)
};

/// Opens the window and runs until it is closed (or `frames` are done). Throws pcv::Error
/// (UnavailableError when there is no display).
void runViewer(const ViewerOptions& options);

}  // namespace pcv::app
