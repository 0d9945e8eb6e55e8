/// @brief The renderer interface: a backend owns the points where it renders from (GPU memory
/// for `cuda`, host memory for `cpu`) and turns a view into an RGBA8 image.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pcv/core/point.hpp"
#include "pcv/raster/projection.hpp"
#include "pcv/raster/render_settings.hpp"
#include "pcv/raster/render_target.hpp"
#include "pcv/raster/stage_timings.hpp"
#include "pcv/scene/cylinders.hpp"

namespace pcv {

/// The most points a backend holds: the framebuffer's 32-bit payload is a point index.
constexpr uint64_t kMaxPointCount = 0xffffffffull;

/// How a backend stores the points it is given; fixed at creation.
struct BackendOptions {
  /// Reorder points by Morton code when they are set: nearby points become neighbours in memory.
  /// The compact method needs it; off keeps the given order (to measure what ordering brings).
  bool mortonOrder = true;
  /// Keep only the compact layout (8 bytes per point) and drop the 16-byte points after building
  /// it: the most points fit, but only the compact method is left.
  bool compactOnly = false;
};

class Backend {
 public:
  virtual ~Backend() = default;

  /// "cuda" or "cpu".
  virtual std::string name() const = 0;
  /// Method names this backend implements; the first is its default.
  virtual std::vector<std::string> methods() const = 0;
  /// One line about the device ("NVIDIA H200, 132 SMs" / "CPU, 16 threads").
  virtual std::string deviceDescription() const = 0;

  /// Replaces the points with a copy of `points` (count of points, host memory).
  /// Throws OutOfMemoryError, naming the sizes, when they do not fit.
  virtual void setPoints(std::span<const Point> points) = 0;
  /// Replaces the points with the cylinder scene, generated where this backend renders from.
  virtual void generateCylinders(const CylinderScene& scene, uint64_t pointCount) = 0;
  /// Number of points held (not bytes).
  virtual uint64_t pointCount() const = 0;
  /// Bytes of point data the backend keeps resident (all layouts together).
  virtual uint64_t residentPointBytes() const = 0;
  /// Bytes a method reads per point in its raster pass(es) (its memory traffic per point).
  virtual double bytesReadPerPoint(const std::string& method) const = 0;
  /// Copies the points back to the host, in the backend's current order (Morton order when the
  /// backend sorts). Empty when the backend keeps only the compact layout.
  virtual std::vector<Point> downloadPoints() const = 0;

  /// Draws the points. `target` must be in a memory space this backend writes (the cpu backend:
  /// Host; the cuda backend: Device or Host). Throws InputError for an unknown method.
  virtual void render(const ViewTransform& view, const RenderSettings& settings,
                      const RenderTarget& target) = 0;
  /// Per-stage times of the last render (may wait for the GPU to finish it).
  virtual StageTimings lastTimings() = 0;
  /// Time each stage (the default) or only whole frames, which adds no timing marks between
  /// stages; lastTimings() then holds one entry, "frame".
  virtual void setPerStageTiming(bool perStage) { (void)perStage; }
  /// The cudaStream_t the backend renders on (as void*, so this header needs no CUDA), for
  /// interop: map GL resources on it before render() and unmap on it after, and CUDA orders the
  /// work with GL's. render() returns without waiting for Device and CudaSurface targets.
  /// nullptr for backends that do not use CUDA.
  virtual void* cudaStream() const { return nullptr; }
};

/// Known backend names, for messages and help: {"auto", "cuda", "cpu"}.
std::vector<std::string> backendNames();

/// True when this build has CUDA and a usable device exists; otherwise `reason` says why not.
bool cudaAvailable(std::string* reason = nullptr);

/// Creates a backend by name. "auto" picks cuda when cudaAvailable(), else cpu. Throws
/// UnavailableError ("built without CUDA", "no CUDA device: ...") or InputError for an unknown
/// name, listing the known ones.
std::unique_ptr<Backend> createBackend(std::string_view name, const BackendOptions& options = {});

/// Resolves the method name against the backend's list (empty = default); throws InputError
/// listing the known methods otherwise.
std::string resolveMethod(const Backend& backend, const std::string& requested);

}  // namespace pcv
