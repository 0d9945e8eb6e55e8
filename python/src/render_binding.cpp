#include "render_binding.hpp"

#include <array>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "pcv/core/error.hpp"
#include "pcv/core/image_size.hpp"
#include "pcv/core/point_coloring.hpp"
#include "pcv/raster/renderer.hpp"
#include "pcv/session/render_converged.hpp"
#include "pcv/session/scene.hpp"
#include "pcv/session/scene_camera.hpp"
#include "image_array.hpp"
#include "render_source.hpp"
#include "view_arguments.hpp"

namespace py = pybind11;

namespace pcv::python {
namespace {

/// The keyword arguments of pcv.render besides the source, as the session layer's values.
struct RenderRequest {
  int width = 1280, height = 720;
  CameraRequest camera;
  std::string backend = "auto";
  RenderSettings settings;
  SceneOptions scene;
  double timeLimitSeconds = 600.0;
};

/// Lines the session reports while the GIL is released, turned into Python warnings after.
struct CollectedLines {
  std::mutex mutex;
  std::vector<std::string> lines;
  std::function<void(const std::string&)> collector() {
    return [this](const std::string& line) {
      std::lock_guard lock(mutex);
      lines.push_back(line);
    };
  }
};

/// Draws the scene `sources` make as `request` asks, top row first, into memory the returned
/// array will own.
HostImageBuffer renderImage(const SceneSources& sources, RenderRequest& request) {
  const ScenePlan plan = prepareScene(sources, request.scene);
  std::unique_ptr<Renderer> renderer = createRenderer(request.backend, plan.rendererOptions());
  renderer->methodFor(request.settings);  // an unknown method fails before anything is loaded
  Scene scene(plan, request.scene, *renderer);
  const Camera camera =
      startCamera(scene.kind(), scene.worldBounds(), float(request.width) / float(request.height),
                  request.camera, framingSamples(scene));
  HostImageBuffer image = imageBufferFor(*renderer, request.width, request.height);
  renderConverged(scene, camera, request.settings,
                  topRowFirstTarget(image, request.width, request.height),
                  request.timeLimitSeconds);
  return image;
}

py::array_t<uint8_t> render(
    py::object source, py::object rgb, std::array<int, 2> size,
    std::optional<std::array<double, 3>> eye, double yaw, double pitch, const std::string& up,
    double fov, std::optional<float> nearPlane, std::optional<float> farPlane,
    const std::string& backend, std::optional<std::string> method, const std::string& color,
    std::optional<std::string> colorMap, std::optional<std::array<double, 2>> colorRange,
    int pointSize, const std::string& pointShape, float worldSize, int fillHoles,
    const std::string& edl, float edlStrength, int edlRadius, bool hq,
    std::array<int, 3> background, std::optional<std::array<int, 3>> backgroundTop,
    std::optional<uint32_t> scan, uint64_t pointBudget, bool inCore, double timeLimit) {
  RenderRequest request;
  checkImageSize({size[0], size[1]});
  request.width = size[0];
  request.height = size[1];
  request.camera = cameraRequestFrom(eye, yaw, pitch, up, fov, nearPlane, farPlane);

  parseBackend(backend);  // an unknown name fails before anything is read
  request.backend = backend;
  request.settings = renderSettingsFrom(method, pointSize, pointShape, worldSize, fillHoles, edl,
                                        edlStrength, edlRadius, hq, background, backgroundTop);

  request.scene.read.scan = scan;
  request.scene.coloring = coloringFrom(color, colorMap, colorRange);
  request.scene.stream.pointBudget = pointBudget;
  request.scene.stream.inCore = inCore;
  if (!(timeLimit > 0.0)) throw InputError("time_limit must be > 0 seconds");
  request.timeLimitSeconds = timeLimit;
  CollectedLines warnings;
  request.scene.report.warning = warnings.collector();
  request.scene.report.error = warnings.collector();

  const RenderSource given = renderSourceFrom(source, rgb);
  HostImageBuffer image;
  {
    py::gil_scoped_release unlocked;
    image = renderImage(given.sources, request);
  }
  py::array_t<uint8_t> pixels = imageArray(std::move(image), request.width, request.height);
  const py::object warn = py::module_::import("warnings").attr("warn");
  for (const std::string& line : warnings.lines) warn(line, py::arg("stacklevel") = 2);
  return pixels;
}

}  // namespace

void bindRender(py::module_& module) {
  module.def("render", &render, py::arg("source"), py::arg("rgb") = py::none(), py::kw_only(),
             py::arg("size") = std::array<int, 2>{1280, 720}, py::arg("eye") = py::none(),
             py::arg("yaw") = 0.0, py::arg("pitch") = 0.0, py::arg("up") = "z",
             py::arg("fov") = 60.0, py::arg("near") = py::none(), py::arg("far") = py::none(),
             py::arg("backend") = "auto", py::arg("method") = py::none(), py::arg("color") = "rgb",
             py::arg("color_map") = py::none(), py::arg("color_range") = py::none(),
             py::arg("point_size") = 1, py::arg("point_shape") = "square",
             py::arg("world_size") = 0.0f, py::arg("fill_holes") = 0, py::arg("edl") = "auto",
             py::arg("edl_strength") = 1.0f, py::arg("edl_radius") = 1, py::arg("hq") = false,
             py::arg("background") = std::array<int, 3>{0, 0, 0},
             py::arg("background_top") = py::none(), py::arg("scan") = py::none(),
             py::arg("point_budget") = 0, py::arg("in_core") = false, py::arg("time_limit") = 600.0,
             R"doc(Renders files or points to an image, as `pcv render` draws them.

Args:
    source: a path, a list of paths (merged), a dict as pcv.read returns it, or an N x 3
        array of world positions. One COPC file streams from its octree until the view
        converges (or time_limit passes); everything else is read whole.
    rgb: with an array source, N x 3 uint8 colours; without, points are coloured by elevation.
    size: (width, height) in pixels.
    eye: the camera position (world units); None frames the scene's bounds (the same default
        view as `pcv render`). yaw, pitch: degrees; yaw 0 looks along +x, positive turns left,
        pitch positive looks up (used with eye). up: "z" or "y". fov: vertical, in degrees.
    near, far: clip planes (world units); None fits them to the scene.
    backend: "auto" (cuda where usable, else a Vulkan GPU, else cpu), "cuda", "vulkan" or
        "cpu".
    method: the raster method ("compact", ...); None takes the backend's fastest.
    color: "rgb", "elevation", "intensity", "classification", or an attribute name (or
        "x", "y", "z") mapped through color_map ("viridis", "turbo", "grey") over color_range.
    point_size, point_shape, world_size, fill_holes, edl, edl_strength, edl_radius, hq,
        background, background_top: the quality settings of `pcv render` (--point-size ...).
    scan: E57 files: read only this scan. point_budget, in_core: COPC streaming limits.
    time_limit: seconds a streamed file may take to converge.

Returns:
    An (height, width, 4) uint8 RGBA array, top row first.

Raises:
    pcv.InputError: a bad file or argument. pcv.UnavailableError: backend "cuda" without a
    usable GPU or CUDA build. pcv.OutOfMemoryError: the points do not fit.)doc");
}

}  // namespace pcv::python
