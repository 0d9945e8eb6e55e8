/// @brief The option groups the commands share, each declared once: the demo scene (--points,
/// --seed), the renderer (--backend, --method), the view (--size, --eye, --yaw, --pitch,
/// --near, --far, --up) and file reading (--scan). `pcv render`, `pcv bench`, `pcv view` and
/// `pcv info` add the groups they take.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "options/cli_options.hpp"
#include "pcv/core/camera.hpp"
#include "pcv/io/point_cloud_reader.hpp"
#include "pcv/raster/renderer.hpp"
#include "pcv/demo/cylinders.hpp"
#include "pcv/session/scene_camera.hpp"

namespace pcv::app {

/// The seed's cylinders, drawn when no file is given.
struct DemoCylindersFlags {
  uint64_t pointCount = kSeedPointCount;  ///< --points
  uint64_t seed = 1;                      ///< --seed
};
void addDemoCylindersFlags(CLI::App& command, DemoCylindersFlags& flags);

/// Which renderer draws.
struct RendererFlags {
  std::string backend = "auto";  ///< --backend auto|cuda|vulkan|cpu
  std::string vulkanDevice;      ///< --vulkan-device N|NAME; empty: the best GPU
  std::string method;            ///< --method; empty: the renderer's default
};
/// Adds --backend, and --method unless `withMethod` is false (bench times a list of methods).
void addRendererFlags(CLI::App& command, RendererFlags& flags, bool withMethod = true);
/// The renderer the flags ask for; says on stderr which backend it took and why.
std::unique_ptr<Renderer> createRendererFrom(const RendererFlags& flags,
                                             const RendererOptions& options = {});
/// The --method, or empty for the default; throws InputError for an unknown name.
std::optional<RasterMethod> methodFrom(const RendererFlags& flags);

/// The image size and the camera.
struct ViewFlags {
  std::string size = "1280x720";   ///< --size WIDTHxHEIGHT
  std::string eye = "-3,0,0";      ///< --eye x,y,z
  double yawDegrees = 0.0;         ///< --yaw; double, so any float angle in radians has a value
  double pitchDegrees = 0.0;       ///< --pitch   that reproduces it (see render_arguments.hpp)
  bool eyeGiven = false;           ///< --eye was given: do not frame the camera on the files
  std::optional<float> nearPlane;  ///< --near; empty: from the scene's size
  std::optional<float> farPlane;   ///< --far; empty: from the scene's size
  UpAxis up = UpAxis::Z;           ///< --up z|y: the world axis that points up
  std::string ortho;               ///< --ortho plan|front|side|view; empty: perspective
  /// --ortho-width, world units; empty: fitted to the scene.
  std::optional<double> orthoWidth;
};
/// `sizeHelp` says what the size is of ("Image size", "Window size").
void addViewFlags(CLI::App& command, ViewFlags& flags, const char* sizeHelp);
/// The camera the flags give, with near and far from --near/--far where given; a camera the
/// library refuses (cameraFromOptions) is an option error.
Camera cameraFrom(const ViewFlags& flags);
/// The --up axis.
UpAxis upAxisFrom(const ViewFlags& flags);
/// The start-camera request of the flags: the camera, whether the eye, planes and orthographic
/// width were given, and the named orthographic view.
CameraRequest cameraRequestFrom(const ViewFlags& flags);

/// What to read of each file.
struct ReadFlags {
  int64_t scan = -1;  ///< --scan N: an E57 file's scan N only (0-based); -1 reads every scan
  std::string decode = "auto";  ///< --decode: LAZ/COPC chunks on auto, cuda or cpu
  bool strict = false;          ///< --strict: refuse files cut short instead of reading them
};
void addReadFlags(CLI::App& command, ReadFlags& flags);
ReadOptions readOptionsFrom(const ReadFlags& flags);

}  // namespace pcv::app
