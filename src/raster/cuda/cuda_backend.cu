#include "cuda_backend.hpp"

#include "../backend_checks.hpp"

#include <cstdlib>
#include <string>

#include "cuda_method.hpp"
#include "pcv/scene/cylinders_cuda.hpp"
#include "point_layout.cuh"
#include "quality_pipeline.hpp"

namespace pcv {

bool cudaDeviceUsable(std::string* reason) {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess || count == 0) {
    if (reason) {
      *reason = status != cudaSuccess ? std::string("no CUDA device: ") + cudaGetErrorString(status)
                                      : "no CUDA device found";
    }
    cudaGetLastError();  // clear the sticky status so a later check starts clean
    return false;
  }
  return true;
}

namespace {

class CudaBackend final : public Backend {
 public:
  explicit CudaBackend(const BackendOptions& options) : options_(options) {
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    // PCV_NO_DEPENDENT_LAUNCH=1 serializes the frame's kernels fully (to measure what the
    // overlap brings; see bench/RESULTS.md).
    if (const char* off = std::getenv("PCV_NO_DEPENDENT_LAUNCH"); off && *off == '1') {
      recorder_.setDependentLaunches(false);
    }
    // The first method is the default: the fastest.
    if (options_.mortonOrder) {
      methods_.push_back(cuda::createCompactMethod());
    }
    if (!options_.compactOnly) {
      methods_.push_back(cuda::createEarlyZMethod());
      methods_.push_back(cuda::createPackedMethod());
      methods_.push_back(cuda::createSeedMethod());
    }
  }
  ~CudaBackend() override {
    if (stream_) CUDA_CHECK_PRINT(cudaStreamDestroy(stream_));
  }

  std::string name() const override { return "cuda"; }
  std::vector<std::string> methods() const override {
    std::vector<std::string> names;
    for (const auto& method : methods_) names.emplace_back(method->name());
    return names;
  }
  std::string deviceDescription() const override {
    int device = 0;
    cudaDeviceProp properties{};
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaGetDeviceProperties(&properties, device));
    return std::string(properties.name) + ", " + std::to_string(properties.multiProcessorCount) +
           " SMs, " + formatBytes(double(properties.totalGlobalMem));
  }

  void setPoints(std::span<const Point> points) override {
    requirePointCount(points.size());
    allocatePoints(points.size());
    CUDA_CHECK(cudaMemcpyAsync(points_.data(), points.data(), points.size_bytes(),
                               cudaMemcpyHostToDevice, stream_));
    pointsChanged();
  }

  void generateCylinders(const CylinderScene& scene, uint64_t pointCount) override {
    requirePointCount(pointCount);
    allocatePoints(pointCount);
    generateCylinderPointsOnDevice(scene, points_.data(), pointCount, stream_);
    pointsChanged();
  }

  uint64_t pointCount() const override { return count_; }
  uint64_t residentPointBytes() const override { return points_.bytes() + compact_.bytes(); }
  double bytesReadPerPoint(const std::string& method) const override {
    for (const auto& m : methods_) {
      if (method == m->name()) return m->bytesReadPerPoint();
    }
    return 0.0;
  }

  std::vector<Point> downloadPoints() const override {
    std::vector<Point> host(points_.size());
    CUDA_CHECK(cudaMemcpyAsync(host.data(), points_.data(), points_.bytes(), cudaMemcpyDeviceToHost,
                               stream_));
    CUDA_CHECK(cudaStreamSynchronize(stream_));
    return host;
  }

  void render(const ViewTransform& view, const RenderSettings& settings,
              const RenderTarget& target) override {
    cuda::CudaMethod& method = findMethod(resolveMethod(*this, settings.method));
    const uint64_t pixels = uint64_t(view.width) * view.height;
    framebuffer_.reserve(pixels);
    cuda::PixelSink out{target.rgba, cudaSurfaceObject_t(target.surface), view.width};
    if (target.memory == MemorySpace::Host || target.rgba == nullptr) {
      deviceImage_.reserve(pixels);
      out.rgba = deviceImage_.data();
    }
    if (target.memory == MemorySpace::CudaSurface) out.rgba = nullptr;
    recorder_.beginFrame(stream_);
    const cuda::FrameContext frame{points_.data(), &compact_, count_,        view,
                                   &settings,      out,       &framebuffer_, &recorder_};
    if (needsQualityPipeline(settings.quality)) {
      requireCompactLayoutForQuality(options_);
      validateQualitySettings(settings.quality);
      quality_.render(frame, settings.quality);
    } else {
      method.render(frame);
    }
    recorder_.endFrame();
    if (target.memory == MemorySpace::Host && target.rgba != nullptr) {
      CUDA_CHECK(cudaMemcpyAsync(target.rgba, out.rgba, pixels * sizeof(uint32_t),
                                 cudaMemcpyDeviceToHost, stream_));
      CUDA_CHECK(cudaStreamSynchronize(stream_));
    }
  }

  StageTimings lastTimings() override { return recorder_.timings(); }
  void* cudaStream() const override { return stream_; }
  void setPerStageTiming(bool perStage) override { recorder_.setPerStage(perStage); }

 private:
  void allocatePoints(uint64_t count) {
    // Free the old points and layouts before asking for new memory.
    points_ = DeviceBuffer<Point>();
    count_ = 0;
    compact_ = cuda::CompactPointsDevice();
    // Sorting holds the points, 24 bytes of keys and indices (twice) and a sorted copy at once.
    const uint64_t peakBytesPerPoint = sizeof(Point) + (options_.mortonOrder ? 24 + 16 : 0);
    requireDeviceMemory("the points and their Morton sort", count, peakBytesPerPoint);
    points_.resize(count);
  }
  void pointsChanged() {
    count_ = points_.size();
    if (options_.mortonOrder) {
      cuda::sortPointsByMorton(points_, stream_);
      cuda::buildCompactPoints(points_.data(), count_, compact_, stream_);
    }
    if (options_.compactOnly) points_ = DeviceBuffer<Point>();
  }
  cuda::CudaMethod& findMethod(const std::string& name) {
    for (auto& method : methods_) {
      if (name == method->name()) return *method;
    }
    throw InputError("unknown cuda method '" + name + "'");
  }

  BackendOptions options_;
  cudaStream_t stream_ = nullptr;
  uint64_t count_ = 0;
  DeviceBuffer<Point> points_;         // empty when options_.compactOnly
  cuda::CompactPointsDevice compact_;  // built when options_.mortonOrder
  DeviceBuffer<uint64_t> framebuffer_;
  DeviceBuffer<uint32_t> deviceImage_;  // drawn here when the caller wants the image on the host
  StageRecorder recorder_;
  std::vector<std::unique_ptr<cuda::CudaMethod>> methods_;
  cuda::QualityPipeline quality_;  // runs instead of the method when a quality setting is on
};

}  // namespace

std::unique_ptr<Backend> createCudaBackend(const BackendOptions& options) {
  requireConsistentOptions(options);
  return std::make_unique<CudaBackend>(options);
}

}  // namespace pcv
