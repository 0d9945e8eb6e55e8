// The points go up once (through pinned staging buffers), noise and ground are found on the GPU
// without coming back in between, and the two flag arrays come down to be merged into classes.
// Before any of it, the run's peak of GPU memory is estimated from the point count and the grid:
// a run that would not fit goes to the CPU whole rather than failing part way.
#include "pcv/process_cuda/cuda_point_classifier.hpp"

#include <cuda_runtime_api.h>

#include <limits>
#include <mutex>
#include <optional>
#include <sstream>

#include "classify_kernels.hpp"
#include "pcv/core/error.hpp"
#include "pcv/core/parallel.hpp"
#include "pcv/cuda/cuda_check.hpp"
#include "pcv/cuda/device_buffer.hpp"
#include "pcv/cuda/staged_copy.hpp"

namespace pcv {
namespace {

using process_cuda::DevicePoints;

/// Bytes of GPU memory the ground filter's grids take at most besides the points: a dozen grids
/// of floats and flags over kGroundFilterMaxCells cells, less for smaller extents (estimated
/// from the cells the run's grid could have, which only the GPU's extent will tell).
uint64_t groundGridBytes(uint64_t cells) {
  return cells * (12 * sizeof(float) + 6);
}

class CudaPointClassifier final : public PointClassifier {
 public:
  CudaPointClassifier() {
    int device = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    cudaDeviceProp properties{};
    CUDA_CHECK(cudaGetDeviceProperties(&properties, device));
    name_ = std::string("cuda: ") + properties.name;
  }

  std::vector<uint8_t> classify(std::span<const glm::dvec3> points,
                                const ClassifySettings& settings, const GroundGridWindow* window,
                                std::string* ranOn) const override {
    checkClassifySettings(settings);
    if (points.empty()) throw InputError("classify: no points to classify");
    const std::lock_guard lock(mutex_);
    const std::string refusal = whyNot(points.size(), settings);
    if (!refusal.empty()) return onCpu(points, settings, window, ranOn, refusal);
    try {
      std::vector<uint8_t> classes = onGpu(points, settings, window);
      if (ranOn) *ranOn = name_;
      return classes;
    } catch (const OutOfMemoryError& error) {
      return onCpu(points, settings, window, ranOn, error.what());
    }
  }

 private:
  /// Why the GPU cannot take `count` points ("" when it can).
  std::string whyNot(uint64_t count, const ClassifySettings& settings) const {
    if (count > std::numeric_limits<uint32_t>::max()) {
      return std::to_string(count) + " points: the GPU filters take at most 2^32 - 1 at once";
    }
    uint64_t needed = count * (sizeof(glm::dvec3) + 3);
    if (settings.noise) needed += process_cuda::noiseWorkingBytes(count);
    if (settings.ground)
      needed += groundGridBytes(std::min<uint64_t>(kGroundFilterMaxCells, count));
    size_t freeBytes = 0, totalBytes = 0;
    CUDA_CHECK(cudaMemGetInfo(&freeBytes, &totalBytes));
    if (needed <= freeBytes) return "";
    std::ostringstream why;
    why << "the GPU has " << formatBytes(double(freeBytes)) << " free, " << count
        << " points need about " << formatBytes(double(needed));
    return why.str();
  }

  static std::vector<uint8_t> onCpu(std::span<const glm::dvec3> points,
                                    const ClassifySettings& settings,
                                    const GroundGridWindow* window, std::string* ranOn,
                                    const std::string& why) {
    if (ranOn) *ranOn = "cpu (" + why + ")";
    return classifyPoints(points, settings, window);
  }

  std::vector<uint8_t> onGpu(std::span<const glm::dvec3> points, const ClassifySettings& settings,
                             const GroundGridWindow* window) const {
    const uint64_t count = points.size();
    DeviceBuffer<double> xyz(3 * count);
    // Pinned staging made once for the classifier (calls hold the lock): tiles of a dataset
    // classified one after the other do not pin and unpin their buffers every time.
    if (!copier_) copier_.emplace();
    StagedCopier& copier = *copier_;
    copier.toDevice(xyz.data(), points.data(), count * sizeof(glm::dvec3));
    const DevicePoints onDevice{xyz.data(), count};
    DeviceBuffer<uint8_t> noise, ground;
    if (settings.noise) {
      noise.resize(count);
      process_cuda::findNoiseOnDevice(onDevice, settings.noiseFilter, noise.data());
    }
    if (settings.ground) {
      ground.resize(count);
      process_cuda::findGroundOnDevice(onDevice, settings.noise ? noise.data() : nullptr,
                                       settings.groundFilter, window, ground.data());
    }
    std::vector<uint8_t> classes(count, kClassUnclassified), flags(count);
    // Ground is never a noise point (noise is excluded from it), so the order does not matter.
    const auto mark = [&](const DeviceBuffer<uint8_t>& found, uint8_t value) {
      copier.toHost(flags.data(), found.data(), count);
      parallelFor(count, [&](uint64_t begin, uint64_t end) {
        for (uint64_t i = begin; i < end; ++i) {
          if (flags[i]) classes[i] = value;
        }
      });
    };
    if (settings.noise) mark(noise, kClassNoise);
    if (settings.ground) mark(ground, kClassGround);
    return classes;
  }

  std::string name_;
  mutable std::mutex mutex_;
  mutable std::optional<StagedCopier> copier_;  ///< under mutex_
};

}  // namespace

std::shared_ptr<const PointClassifier> makeCudaPointClassifier() {
  return std::make_shared<const CudaPointClassifier>();
}

}  // namespace pcv
