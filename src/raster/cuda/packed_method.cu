// Methods "packed" and "earlyz": one pass of 64-bit atomicMin of depth|index per point, then a
// resolve that fetches each visible point's colour once. "earlyz" reads the pixel first and
// skips the atomic when the point is not closer.
#include "cuda_method.hpp"

namespace pcv::cuda {
namespace {

struct PackedRasterParams {
  const Point* points;  ///< the pool's points, device memory
  uint64_t first;       ///< first point slot drawn
  uint64_t pointCount;  ///< count of points drawn
  ViewTransform view;
  unsigned long long* words;  ///< framebuffer, one word per pixel
};

template <bool kEarlyZ>
__device__ void rasterPacked(const PackedRasterParams& p) {
  const uint64_t thread = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
  if (thread >= p.pointCount) return;
  const uint64_t i = p.first + thread;
  const Point point = p.points[i];
  PixelHit hit;
  if (!projectPoint(p.view, point.x, point.y, point.z, hit)) return;
  unsigned long long* slot = &p.words[uint64_t(hit.y) * p.view.width + hit.x];
  const unsigned long long key = packDepthWord(hit.viewDepth, uint32_t(i));
  if (kEarlyZ && key >= *slot) return;
  atomicMin(slot, key);
}

__global__ void rasterPackedKernel(PackedRasterParams p) {
  rasterPacked<false>(p);
}
__global__ void rasterEarlyZKernel(PackedRasterParams p) {
  rasterPacked<true>(p);
}

template <bool kEarlyZ>
class PackedMethod final : public CudaMethod {
 public:
  const char* name() const override { return kEarlyZ ? "earlyz" : "packed"; }
  void render(const FrameContext& f) override {
    const uint64_t pixels = uint64_t(f.view.width) * f.view.height;
    uint64_t* words = f.framebuffer->data();
    // Clear every pixel to kEmptyPixel.
    f.recorder->launch("clear", pixels, clearWordsKernel, ClearWordsParams{words, pixels});
    // Closest point per pixel through 64-bit atomicMin of depth|index, set by set.
    const Point* points = f.pool->points.data();
    for (const PointRange& range : f.pointRanges) {
      f.recorder->launchPart("raster", range.count,
                             kEarlyZ ? rasterEarlyZKernel : rasterPackedKernel,
                             PackedRasterParams{points, range.first, range.count, f.view,
                                                reinterpret_cast<unsigned long long*>(words)});
    }
    f.recorder->endStage("raster");
    // Colour of the winning point, or the background.
    f.recorder->launch("resolve", pixels, resolveIndexWordsKernel,
                       ResolveParams{words, points, f.out, pixels, f.settings->background});
  }
};

}  // namespace

std::unique_ptr<CudaMethod> createPackedMethod() {
  return std::make_unique<PackedMethod<false>>();
}
std::unique_ptr<CudaMethod> createEarlyZMethod() {
  return std::make_unique<PackedMethod<true>>();
}

}  // namespace pcv::cuda
