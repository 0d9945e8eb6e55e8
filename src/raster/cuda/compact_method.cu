// Method "compact", the fastest: Morton-ordered batches of kBatchSize points with 4-byte quantized
// positions (src/raster/shared/compact_points.hpp), drawn by the cull and raster stages of
// compact_raster.cuh; then a resolve that fetches colours once per visible pixel and clears the
// pixel for the next frame, so there is no clear pass after the first frame.
#include <algorithm>

#include "compact_raster.cuh"
#include "pcv/cuda/dependent_launch.cuh"

namespace pcv::cuda {
namespace {

struct ResolveAndClearParams {
  unsigned long long* words;  ///< read, then reset to kEmptyPixel
  const uint32_t* colors;     ///< RGBA8 per point
  PixelSink out;
  uint64_t pixelCount;
  uint32_t background;
};

__device__ PCV_FORCE_INLINE uint32_t colorOfWord(const ResolveAndClearParams& p, uint64_t word) {
  return word == kEmptyPixel ? p.background : __ldg(&p.colors[payloadOfWord(word)]);
}

/// Four pixels per thread with two 16-byte framebuffer reads, for a pixel count divisible by 4.
__device__ void resolveAndClearQuads(const ResolveAndClearParams& p) {
  beginDependentKernel();
  const uint64_t quad = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
  if (4 * quad >= p.pixelCount) return;
  ulonglong2* words = reinterpret_cast<ulonglong2*>(p.words) + 2 * quad;
  const ulonglong2 a = words[0], b = words[1];
  const uint4 colors = make_uint4(colorOfWord(p, a.x), colorOfWord(p, a.y), colorOfWord(p, b.x),
                                  colorOfWord(p, b.y));
  p.out.storeQuad(quad, colors);
  const ulonglong2 empty = make_ulonglong2(kEmptyPixel, kEmptyPixel);
  if (a.x != kEmptyPixel || a.y != kEmptyPixel) words[0] = empty;
  if (b.x != kEmptyPixel || b.y != kEmptyPixel) words[1] = empty;
}

__device__ void resolveAndClear(const ResolveAndClearParams& p) {
  beginDependentKernel();
  const uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
  if (i >= p.pixelCount) return;
  const uint64_t word = p.words[i];
  if (word == kEmptyPixel) {
    p.out.store(i, p.background);
    return;
  }
  p.out.store(i, __ldg(&p.colors[payloadOfWord(word)]));
  p.words[i] = kEmptyPixel;
}

__global__ void resolveAndClearQuadsKernel(ResolveAndClearParams p) {
  resolveAndClearQuads(p);
}
__global__ void resolveAndClearKernel(ResolveAndClearParams p) {
  resolveAndClear(p);
}

class CompactMethod final : public CudaMethod {
 public:
  const char* name() const override { return "compact"; }

  void render(const FrameContext& f) override {
    const uint64_t pixels = uint64_t(f.view.width) * f.view.height;
    if (framebuffer_.size() < pixels) {
      framebuffer_.resize(pixels);
      clearWords_ = 0;
    }
    auto* words = reinterpret_cast<unsigned long long*>(framebuffer_.data());
    // The resolve leaves every pixel it read clear, so only a first or larger frame clears.
    if (pixels > clearWords_) {
      f.recorder->launch("clear", pixels, clearWordsKernel,
                         ClearWordsParams{framebuffer_.data(), pixels});
      clearWords_ = pixels;
    }
    // Closest point per pixel: the "cull" and "raster" stages.
    stages_.draw(f, words);
    // Colour of each pixel's closest point; the pixel is cleared for the next frame.
    const ResolveAndClearParams resolve{words, f.pool->colors.data(), f.out, pixels,
                                        f.settings->background};
    if (pixels % 4 == 0) {
      f.recorder->launchDependent("resolve", pixels / 4, resolveAndClearQuadsKernel, resolve);
    } else {
      f.recorder->launchDependent("resolve", pixels, resolveAndClearKernel, resolve);
    }
  }

 private:
  DeviceBuffer<uint64_t> framebuffer_;
  uint64_t clearWords_ = 0;  // leading framebuffer words known to hold kEmptyPixel
  CompactRasterStages stages_;
};

}  // namespace

std::unique_ptr<CudaMethod> createCompactMethod() {
  return std::make_unique<CompactMethod>();
}

}  // namespace pcv::cuda
