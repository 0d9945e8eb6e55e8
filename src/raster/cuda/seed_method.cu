// Method "seed": the seed demo's algorithm as it was, kept for comparison. A float depth buffer
// (NDC depth in [0, 1]) through atomicMin, then every point whose depth equals its pixel's
// writes its colour; equal depths race in that second pass.
#include "cuda_method.hpp"
#include "pcv/core/float_math.hpp"

namespace pcv::cuda {
namespace {

struct SeedClearParams {
  unsigned int* depthBits;  ///< float bits of NDC depth per pixel
  PixelSink out;            ///< output pixels
  uint64_t pixelCount;
  uint32_t background;
};

struct SeedPassParams {
  const Point* points;  ///< the pool's points
  uint64_t first;       ///< first point slot drawn
  uint64_t pointCount;  ///< count of points drawn
  ViewTransform view;
  unsigned int* depthBits;  ///< positive floats order like uint32, so integer atomicMin works
  PixelSink out;
};

__device__ void seedClear(const SeedClearParams& p) {
  const uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
  if (i >= p.pixelCount) return;
  p.depthBits[i] = floatBits(1.0f);
  p.out.store(i, p.background);
}

__device__ void seedDepth(const SeedPassParams& p) {
  const uint64_t thread = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
  if (thread >= p.pointCount) return;
  const Point point = p.points[p.first + thread];
  PixelHit hit;
  if (!projectPoint(p.view, point.x, point.y, point.z, hit)) return;
  atomicMin(&p.depthBits[uint64_t(hit.y) * p.view.width + hit.x], floatBits(hit.ndcDepth01));
}

__device__ void seedColor(const SeedPassParams& p) {
  const uint64_t thread = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
  if (thread >= p.pointCount) return;
  const Point point = p.points[p.first + thread];
  PixelHit hit;
  if (!projectPoint(p.view, point.x, point.y, point.z, hit)) return;
  const uint64_t pixel = uint64_t(hit.y) * p.view.width + hit.x;
  if (p.depthBits[pixel] != floatBits(hit.ndcDepth01)) return;
  p.out.store(pixel, point.rgba);
}

__global__ void seedClearKernel(SeedClearParams p) {
  seedClear(p);
}
__global__ void seedDepthKernel(SeedPassParams p) {
  seedDepth(p);
}
__global__ void seedColorKernel(SeedPassParams p) {
  seedColor(p);
}

class SeedMethod final : public CudaMethod {
 public:
  const char* name() const override { return "seed"; }
  void render(const FrameContext& f) override {
    const uint64_t pixels = uint64_t(f.view.width) * f.view.height;
    // The 64-bit scratch holds two 32-bit depth words per element; half of it is used.
    auto* depthBits = reinterpret_cast<unsigned int*>(f.framebuffer->data());
    // Depth to the far plane, colour to the background.
    f.recorder->launch("clear", pixels, seedClearKernel,
                       SeedClearParams{depthBits, f.out, pixels, f.settings->background});
    // Closest NDC depth per pixel, set by set.
    for (const PointRange& range : f.pointRanges) {
      f.recorder->launchPart("depth", range.count, seedDepthKernel,
                             SeedPassParams{f.pool->points.data(), range.first, range.count, f.view,
                                            depthBits, f.out});
    }
    f.recorder->endStage("depth");
    // Points at exactly that depth write their colour (last writer wins on ties).
    for (const PointRange& range : f.pointRanges) {
      f.recorder->launchPart("color", range.count, seedColorKernel,
                             SeedPassParams{f.pool->points.data(), range.first, range.count, f.view,
                                            depthBits, f.out});
    }
    f.recorder->endStage("color");
  }
};

}  // namespace

std::unique_ptr<CudaMethod> createSeedMethod() {
  return std::make_unique<SeedMethod>();
}

}  // namespace pcv::cuda
