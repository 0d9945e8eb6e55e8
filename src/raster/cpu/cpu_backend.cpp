#include "cpu_backend.hpp"

#include <atomic>
#include <chrono>
#include <new>
#include <string>

#include "pcv/core/error.hpp"
#include "pcv/core/host_memory.hpp"
#include "pcv/core/parallel.hpp"
#include "pcv/raster/framebuffer_word.hpp"

namespace pcv {
namespace {

/// Lowers `slot` to `value` if smaller; the CPU twin of CUDA's atomicMin. Reads first so the
/// common case (already closer) costs no write.
template <typename Word>
void atomicMinimum(Word& slot, Word value) {
  std::atomic_ref<Word> ref(slot);
  Word current = ref.load(std::memory_order_relaxed);
  while (value < current &&
         !ref.compare_exchange_weak(current, value, std::memory_order_relaxed)) {
  }
}

class StageClock {
 public:
  explicit StageClock(StageTimings& timings) : timings_(timings) { timings_.clear(); }
  void finish(const char* stage) {
    const auto now = std::chrono::steady_clock::now();
    timings_.push_back({stage, std::chrono::duration<double, std::milli>(now - start_).count()});
    start_ = now;
  }

 private:
  StageTimings& timings_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

class CpuBackend final : public Backend {
 public:
  std::string name() const override { return "cpu"; }
  std::vector<std::string> methods() const override { return {"packed", "seed"}; }
  std::string deviceDescription() const override {
    return "CPU, " + std::to_string(workerCount()) + " threads";
  }

  void setPoints(std::span<const Point> points) override {
    requireHostMemory("the points", points.size(), sizeof(Point));
    points_.assign(points.begin(), points.end());
  }

  void generateCylinders(const CylinderScene& scene, uint64_t pointCount) override {
    requireHostMemory("the cylinder scene's points", pointCount, sizeof(Point));
    points_.clear();
    points_.shrink_to_fit();
    try {
      points_.resize(pointCount);
    } catch (const std::bad_alloc&) {
      throw OutOfMemoryError("not enough host memory for " + std::to_string(pointCount) +
                             " points of " + std::to_string(sizeof(Point)) + " bytes");
    }
    generateCylinderPoints(scene, points_);
  }

  uint64_t pointCount() const override { return points_.size(); }
  std::vector<Point> downloadPoints() const override { return points_; }

  void render(const ViewTransform& view, const RenderSettings& settings,
              const RenderTarget& target) override {
    if (target.memory != MemorySpace::Host) {
      throw UnavailableError("the cpu backend writes host memory only");
    }
    const std::string method = resolveMethod(*this, settings.method);
    const uint64_t pixelCount = uint64_t(view.width) * uint64_t(view.height);
    words_.resize(pixelCount);
    if (method == "packed") {
      renderPacked(view, settings, target, pixelCount);
    } else {
      renderSeed(view, settings, target, pixelCount);
    }
  }

  StageTimings lastTimings() override { return timings_; }

 private:
  void renderPacked(const ViewTransform& view, const RenderSettings& settings,
                    const RenderTarget& target, uint64_t pixelCount) {
    StageClock clock(timings_);
    uint64_t* words = words_.data();
    parallelFor(pixelCount, [&](uint64_t b, uint64_t e) {
      std::fill(words + b, words + e, kEmptyPixel);
    });
    clock.finish("clear");
    const Point* points = points_.data();
    parallelFor(points_.size(), [&](uint64_t b, uint64_t e) {
      for (uint64_t i = b; i < e; ++i) {
        PixelHit hit;
        if (!projectPoint(view, points[i].x, points[i].y, points[i].z, hit)) continue;
        atomicMinimum(words[uint64_t(hit.y) * view.width + hit.x],
                      packDepthWord(hit.viewDepth, uint32_t(i)));
      }
    });
    clock.finish("raster");
    parallelFor(pixelCount, [&](uint64_t b, uint64_t e) {
      for (uint64_t p = b; p < e; ++p) {
        target.rgba[p] =
            words[p] == kEmptyPixel ? settings.background : points[payloadOfWord(words[p])].rgba;
      }
    });
    clock.finish("resolve");
  }

  // The seed's two passes: a float depth buffer (NDC depth in [0, 1]), then every point whose
  // depth equals its pixel's writes its colour. On the GPU equal depths race; here the lowest
  // index wins, kept in the low word of the 64-bit buffer.
  void renderSeed(const ViewTransform& view, const RenderSettings& settings,
                  const RenderTarget& target, uint64_t pixelCount) {
    StageClock clock(timings_);
    uint64_t* words = words_.data();
    parallelFor(pixelCount, [&](uint64_t b, uint64_t e) {
      std::fill(words + b, words + e, kEmptyPixel);
    });
    clock.finish("clear");
    const Point* points = points_.data();
    auto depthSlot = [&](uint64_t pixel) -> uint32_t& {
      return reinterpret_cast<uint32_t*>(words + pixel)[1];  // high word on little-endian
    };
    parallelFor(points_.size(), [&](uint64_t b, uint64_t e) {
      for (uint64_t i = b; i < e; ++i) {
        PixelHit hit;
        if (!projectPoint(view, points[i].x, points[i].y, points[i].z, hit)) continue;
        atomicMinimum(depthSlot(uint64_t(hit.y) * view.width + hit.x), floatBits(hit.ndcDepth01));
      }
    });
    clock.finish("depth");
    parallelFor(points_.size(), [&](uint64_t b, uint64_t e) {
      for (uint64_t i = b; i < e; ++i) {
        PixelHit hit;
        if (!projectPoint(view, points[i].x, points[i].y, points[i].z, hit)) continue;
        const uint64_t pixel = uint64_t(hit.y) * view.width + hit.x;
        if (std::atomic_ref<uint32_t>(depthSlot(pixel)).load(std::memory_order_relaxed) !=
            floatBits(hit.ndcDepth01)) {
          continue;
        }
        atomicMinimum(reinterpret_cast<uint32_t*>(words + pixel)[0], uint32_t(i));
      }
    });
    clock.finish("color");
    parallelFor(pixelCount, [&](uint64_t b, uint64_t e) {
      for (uint64_t p = b; p < e; ++p) {
        target.rgba[p] =
            words[p] == kEmptyPixel ? settings.background : points[payloadOfWord(words[p])].rgba;
      }
    });
    clock.finish("resolve");
  }

  std::vector<Point> points_;
  std::vector<uint64_t> words_;
  StageTimings timings_;
};

}  // namespace

std::unique_ptr<Backend> createCpuBackend() { return std::make_unique<CpuBackend>(); }

}  // namespace pcv
