#include "cpu_backend.hpp"

#include "../backend_checks.hpp"

#include <new>
#include <string>

#include "cpu_methods.hpp"
#include "pcv/core/error.hpp"
#include "pcv/core/host_memory.hpp"
#include "pcv/core/parallel.hpp"
#include "point_layout.hpp"
#include "quality_pipeline.hpp"

namespace pcv {
namespace {

class CpuBackend final : public Backend {
 public:
  explicit CpuBackend(const BackendOptions& options) : options_(options) {}

  std::string name() const override { return "cpu"; }
  std::vector<std::string> methods() const override {
    if (options_.compactOnly) return {"compact"};
    if (options_.mortonOrder) return {"compact", "packed", "seed"};
    return {"packed", "seed"};
  }
  std::string deviceDescription() const override {
    return "CPU, " + std::to_string(workerCount()) + " threads";
  }

  void setPoints(std::span<const Point> points) override {
    requirePointCount(points.size());
    requireHostMemory("the points", points.size(), peakBytesPerPoint());
    points_.assign(points.begin(), points.end());
    pointsChanged();
  }

  void generateCylinders(const CylinderScene& scene, uint64_t pointCount) override {
    requirePointCount(pointCount);
    requireHostMemory("the cylinder scene's points", pointCount, peakBytesPerPoint());
    points_.clear();
    points_.shrink_to_fit();
    try {
      points_.resize(pointCount);
    } catch (const std::bad_alloc&) {
      throw OutOfMemoryError("not enough host memory for " + std::to_string(pointCount) +
                             " points of " + std::to_string(sizeof(Point)) + " bytes");
    }
    generateCylinderPoints(scene, points_);
    pointsChanged();
  }

  uint64_t pointCount() const override { return count_; }
  uint64_t residentPointBytes() const override {
    return points_.size() * sizeof(Point) + compact_.positions.size() * 8 +
           compact_.batches.size() * sizeof(Batch);
  }
  double bytesReadPerPoint(const std::string& method) const override {
    if (method == "compact") return 4.0 + double(sizeof(Batch)) / kBatchSize;
    return method == "seed" ? 2.0 * sizeof(Point) : double(sizeof(Point));
  }
  std::vector<Point> downloadPoints() const override { return points_; }

  void render(const ViewTransform& view, const RenderSettings& settings,
              const RenderTarget& target) override {
    if (target.memory != MemorySpace::Host) {
      throw UnavailableError("the cpu backend writes host memory only");
    }
    const std::string method = resolveMethod(*this, settings.method);
    uint32_t* rgba = target.rgba;
    if (rgba == nullptr) {
      ownImage_.resize(uint64_t(view.width) * view.height);
      rgba = ownImage_.data();
    }
    const cpu::Frame frame{view, settings.background, rgba, &words_, &timings_};
    if (needsQualityPipeline(settings.quality)) {
      requireCompactLayoutForQuality(options_);
      validateQualitySettings(settings.quality);
      cpu::renderQuality(frame, compact_, settings.quality, qualityScratch_);
    } else if (method == "compact") {
      cpu::renderCompact(frame, compact_);
    } else if (method == "packed") {
      cpu::renderPacked(frame, points_);
    } else {
      cpu::renderSeed(frame, points_);
    }
  }

  StageTimings lastTimings() override { return timings_; }

 private:
  // The points, and while they are sorted: 16-byte keys, a sorted copy and the compact layout.
  uint64_t peakBytesPerPoint() const {
    return sizeof(Point) + (options_.mortonOrder ? 16 + sizeof(Point) + 8 : 0);
  }

  void pointsChanged() {
    count_ = points_.size();
    compact_ = {};
    if (!options_.mortonOrder) return;
    sortPointsByMorton(points_);
    compact_ = buildCompactPoints(points_);
    if (options_.compactOnly) {
      points_.clear();
      points_.shrink_to_fit();
    }
  }

  BackendOptions options_;
  uint64_t count_ = 0;
  std::vector<Point> points_;
  CompactPoints compact_;
  std::vector<uint64_t> words_;
  std::vector<uint32_t> ownImage_;  // drawn here when the caller passes no pixels
  StageTimings timings_;
  cpu::QualityScratch qualityScratch_;
};

}  // namespace

std::unique_ptr<Backend> createCpuBackend(const BackendOptions& options) {
  requireConsistentOptions(options);
  return std::make_unique<CpuBackend>(options);
}

}  // namespace pcv
