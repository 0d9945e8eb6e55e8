#include "renderer_binding.hpp"

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "pcv/core/error.hpp"
#include "pcv/core/image_size.hpp"
#include "pcv/io/point_cloud_reader.hpp"
#include "pcv/raster/device_point_arrays.hpp"
#include "pcv/raster/renderer.hpp"
#include "pcv/raster/view_setup.hpp"
#include "pcv/session/colored_cloud.hpp"
#include "pcv/session/scene_camera.hpp"
#include "image_array.hpp"
#include "render_source.hpp"
#include "view_arguments.hpp"

namespace py = pybind11;

namespace pcv::python {
namespace {

class PythonRenderer {
 public:
  /// Frames are timed whole (no timing events between stages), as `pcv bench --whole-frames`.
  PythonRenderer(std::array<int, 2> size, const std::string& backend)
      : renderer_(createRenderer(backend, {.timeStages = false})) {
    checkImageSize({size[0], size[1]});
    size_ = size;
  }

  /// Reads or packs `source`, re-expresses it in the renderer's origin (the first set's),
  /// colours it and lays it out as one set.
  PointSetId add(py::object source, py::object rgb, const std::string& color,
                 std::optional<std::string> colorMap,
                 std::optional<std::array<double, 2>> colorRange) {
    const ColoringOptions coloring = coloringFrom(color, colorMap, colorRange);
    const RenderSource given = renderSourceFrom(source, rgb);
    if (given.cudaArrays) return addProduced(*given.cudaArrays);
    const SceneSources& sources = given.sources;
    py::gil_scoped_release unlocked;
    const std::lock_guard lock(mutex_);
    PointCloud merged;
    bool first = true;
    ReadOptions read;
    read.alsoDecode(coloring.attribute);  // a LAS field coloured by is read beside the defaults
    for (const std::string& file : sources.files) {
      PointCloud cloud = readPointCloud(file, read, nullptr, nullptr);
      if (std::exchange(first, false)) {
        merged = std::move(cloud);
      } else {
        appendPointCloud(merged, cloud);
      }
    }
    for (const auto& given : sources.clouds) {
      if (std::exchange(first, false)) {
        merged = *given;
      } else {
        appendPointCloud(merged, *given);
      }
    }
    if (sets_.empty() && !origin_) origin_ = merged.origin;
    moveToOrigin(merged, *origin_);
    const Box3d bounds = merged.worldBounds();
    auto set = std::make_unique<ColoredCloud>(*renderer_);
    set->merge(std::move(merged), true);
    set->show(coloring);
    // Taken as pcv.render takes them from its scene, so the two frame alike.
    std::vector<glm::dvec3> samples = framingSamples(set->cloud());
    const PointSetId id = *set->set();
    sets_[id] = {std::move(set), bounds, {}, std::move(samples)};
    return id;
  }

  /// Arrays in CUDA memory, packed into a set on the GPU (offsets from the renderer's origin).
  PointSetId addProduced(CudaPointArrays& arrays) {
    const ProducedPoints& produced = arrays.produced();
    DevicePointArrays& points = arrays.points();
    py::gil_scoped_release unlocked;
    const std::lock_guard lock(mutex_);
    if (sets_.empty() && !origin_) origin_ = produced.origin;
    points.moveToOrigin(*origin_);
    const PointSetId id = renderer_->addSet(points, {.hasColor = points.hasColor()});
    sets_[id] = {nullptr, produced.worldBounds, SetOnRenderer(renderer_.get(), id)};
    return id;
  }

  void remove(PointSetId id) {
    const std::lock_guard lock(mutex_);
    if (sets_.erase(id) == 0) throw InputError("no set " + std::to_string(id) + " to remove");
  }

  void clear() {
    const std::lock_guard lock(mutex_);
    sets_.clear();
  }

  std::vector<PointSetId> sets() {
    const std::lock_guard lock(mutex_);
    return renderer_->sets();
  }
  uint64_t pointCount() {
    const std::lock_guard lock(mutex_);
    return renderer_->pointCount();
  }
  std::string backend() const { return renderer_->backendName(); }
  std::array<int, 2> size() const { return size_; }

  /// World bounds of every set, or None.
  py::object bounds() {
    Box3d all;
    {
      const std::lock_guard lock(mutex_);
      all = worldBounds();
    }
    if (all.empty()) return py::none();
    return py::make_tuple(py::make_tuple(all.min.x, all.min.y, all.min.z),
                          py::make_tuple(all.max.x, all.max.y, all.max.z));
  }

  /// Draws into memory the returned array then owns, top row first: no copy on the host.
  py::array_t<uint8_t> render(const CameraRequest& request, const RenderSettings& settings) {
    const int width = size_[0], height = size_[1];
    HostImageBuffer image;
    {
      py::gil_scoped_release unlocked;
      const std::lock_guard lock(mutex_);
      const Camera camera = startCamera(SceneKind::InCore, worldBounds(),
                                        float(width) / float(height), request, allFramingSamples());
      image = imageBufferFor(*renderer_, width, height);
      renderer_->render(makeViewTransform(camera, width, height, origin_.value_or(glm::dvec3(0.0))),
                        settings, topRowFirstTarget(image, width, height));
    }
    return imageArray(std::move(image), width, height);
  }

  /// GPU (or, on the cpu backend, wall) milliseconds of the last frame's stages, then of its
  /// readback ("copy"), in order.
  py::dict lastTimings() {
    StageTimings timings;
    {
      py::gil_scoped_release unlocked;  // waits for the GPU's timing events
      const std::lock_guard lock(mutex_);
      timings = renderer_->lastTimings();
      const StageTimings readback = renderer_->lastReadbackTimings();
      timings.insert(timings.end(), readback.begin(), readback.end());
    }
    py::dict stages;
    for (const StageTiming& stage : timings) stages[py::str(stage.stage)] = stage.milliseconds;
    return stages;
  }

 private:
  /// A set added straight to the renderer (CUDA arrays), removed with its entry.
  struct SetOnRenderer {
    SetOnRenderer() = default;
    SetOnRenderer(Renderer* renderer, PointSetId id) : renderer(renderer), id(id) {}
    SetOnRenderer(SetOnRenderer&& other) noexcept
        : renderer(std::exchange(other.renderer, nullptr)), id(other.id) {}
    SetOnRenderer& operator=(SetOnRenderer&& other) noexcept {
      std::swap(renderer, other.renderer);
      std::swap(id, other.id);
      return *this;
    }
    ~SetOnRenderer() {
      if (renderer) renderer->removeSet(id);
    }
    Renderer* renderer = nullptr;
    PointSetId id = 0;
  };

  struct Set {
    std::unique_ptr<ColoredCloud> points;
    Box3d worldBounds;
    SetOnRenderer produced;
    std::vector<glm::dvec3> samples;  ///< of the points, for framing; none for GPU arrays
  };

  /// Offsets from `origin` instead of the cloud's own: every set of a frame shares one.
  static void moveToOrigin(PointCloud& cloud, const glm::dvec3& origin) {
    const glm::dvec3 shift = cloud.origin - origin;
    if (shift == glm::dvec3(0.0)) return;
    for (Point& point : cloud.points) {
      point.x = float(double(point.x) + shift.x);
      point.y = float(double(point.y) + shift.y);
      point.z = float(double(point.z) + shift.z);
    }
    cloud.origin = origin;
  }

  Box3d worldBounds() const {
    Box3d all;
    for (const auto& [id, set] : sets_) all.extend(set.worldBounds);
    return all;
  }

  /// What the default view is fitted to: every set's samples, or none (the bounds' corners)
  /// when a set in GPU memory has none to give.
  std::vector<glm::dvec3> allFramingSamples() const {
    std::vector<glm::dvec3> all;
    for (const auto& [id, set] : sets_) {
      if (set.samples.empty()) return {};
      all.insert(all.end(), set.samples.begin(), set.samples.end());
    }
    return all;
  }

  // Python threads may share a renderer: the GIL is released while it reads and draws.
  std::mutex mutex_;
  std::unique_ptr<Renderer> renderer_;
  std::array<int, 2> size_{1280, 720};
  std::optional<glm::dvec3> origin_;
  std::map<PointSetId, Set> sets_;  // destroyed first: each removes its set from renderer_
};

}  // namespace

void bindRenderer(py::module_& module) {
  py::class_<PythonRenderer>(module, "Renderer", R"doc(A renderer kept across frames.

Point sets are added once (read, coloured and laid out for drawing) and drawn from any
camera, frame after frame: animations, turntables and batch screenshots without reading the
points again. Sets can be removed and others added between frames.

    renderer = pcv.Renderer(size=(800, 600))
    tile = renderer.add("tile.laz")
    for yaw in range(0, 360, 10):
        image = renderer.render(eye=(x, y, z), yaw=yaw, pitch=-30))doc")
      .def(py::init<std::array<int, 2>, const std::string&>(),
           py::arg("size") = std::array<int, 2>{1280, 720}, py::arg("backend") = "auto",
           "A renderer of `size` (width, height) pixels on `backend` (\"auto\", \"cuda\", "
           "\"vulkan\", \"cpu\").")
      .def("add", &PythonRenderer::add, py::arg("source"), py::arg("rgb") = py::none(),
           py::kw_only(), py::arg("color") = "rgb", py::arg("color_map") = py::none(),
           py::arg("color_range") = py::none(),
           "Adds a set: a path, a list of paths (merged), a dict as pcv.read returns it, or an "
           "N x 3 array of positions with optional N x 3 uint8 colours, coloured as `color` "
           "says (as in pcv.render). Returns the set's id.")
      .def("remove", &PythonRenderer::remove, py::arg("set"),
           "Removes a set by the id add() returned; pcv.InputError for an unknown id.")
      .def("clear", &PythonRenderer::clear, "Removes every set.")
      .def_property_readonly("sets", &PythonRenderer::sets, "Ids of the sets, as added.")
      .def_property_readonly("point_count", &PythonRenderer::pointCount, "Points of every set.")
      .def_property_readonly("backend", &PythonRenderer::backend,
                             "\"cuda\", \"vulkan\" or \"cpu\".")
      .def_property_readonly("size", &PythonRenderer::size, "(width, height) in pixels.")
      .def_property_readonly("last_timings", &PythonRenderer::lastTimings,
                             "Milliseconds of the last render(), by stage: \"frame\" (the "
                             "drawing, GPU time on the cuda backend, as pcv bench times it), "
                             "then on the cuda backend \"copy\" (the image to host memory). "
                             "Empty before a frame.")
      .def_property_readonly("bounds", &PythonRenderer::bounds,
                             "World bounds of every set, ((min x, y, z), (max x, y, z)), or "
                             "None without sets.")
      .def(
          "render",
          [](PythonRenderer& self, std::optional<std::array<double, 3>> eye, double yaw,
             double pitch, const std::string& up, double fov, std::optional<float> nearPlane,
             std::optional<float> farPlane, std::optional<std::string> method, int pointSize,
             const std::string& pointShape, float worldSize, int fillHoles, const std::string& edl,
             float edlStrength, int edlRadius, bool hq, std::array<int, 3> background,
             std::optional<std::array<int, 3>> backgroundTop) {
            return self.render(
                cameraRequestFrom(eye, yaw, pitch, up, fov, nearPlane, farPlane),
                renderSettingsFrom(method, pointSize, pointShape, worldSize, fillHoles, edl,
                                   edlStrength, edlRadius, hq, background, backgroundTop));
          },
          py::kw_only(), py::arg("eye") = py::none(), py::arg("yaw") = 0.0, py::arg("pitch") = 0.0,
          py::arg("up") = "z", py::arg("fov") = 60.0, py::arg("near") = py::none(),
          py::arg("far") = py::none(), py::arg("method") = py::none(), py::arg("point_size") = 1,
          py::arg("point_shape") = "square", py::arg("world_size") = 0.0f,
          py::arg("fill_holes") = 0, py::arg("edl") = "auto", py::arg("edl_strength") = 1.0f,
          py::arg("edl_radius") = 1, py::arg("hq") = false,
          py::arg("background") = std::array<int, 3>{0, 0, 0},
          py::arg("background_top") = py::none(),
          "Draws every set through the camera (as in pcv.render: eye None frames every set's "
          "bounds) and returns an (height, width, 4) uint8 RGBA image, top row first.");
}

}  // namespace pcv::python
