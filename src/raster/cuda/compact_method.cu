// Method "compact", the fastest: Morton-ordered batches of kBatchSize points, each culled
// against the frustum by its box; 4-byte quantized positions read with 16-byte loads; early-z
// (read the pixel, skip the atomic when not closer); colours fetched once per visible pixel by a
// resolve that also clears the framebuffer for the next frame (no separate clear pass).
#include <algorithm>

#include "cuda_method.hpp"
#include "point_layout.cuh"
#include "pcv/raster/compact_points.hpp"

namespace pcv::cuda {
namespace {

constexpr int kRasterBlock = 256;

struct CompactRasterParams {
  const uint32_t* positions;  ///< quantized words, 16-byte aligned per batch
  const Batch* batches;
  float viewProjection[16];   ///< column-major, points relative to the cloud's origin
  int width;                  ///< pixels
  int height;                 ///< pixels
  unsigned long long* words;  ///< framebuffer, one word per pixel, kEmptyPixel where clear
};

struct ResolveAndClearParams {
  unsigned long long* words;  ///< read, then reset to kEmptyPixel
  const uint32_t* colors;     ///< RGBA8 per point
  PixelSink out;
  uint64_t pixelCount;
  uint32_t background;
};

__device__ PCV_FORCE_INLINE void drawQuantized(const CompactRasterParams& p, const float* matrix,
                                               uint32_t word, uint32_t index) {
  PixelHit hit;
  if (!projectQuantized(matrix, word, p.width, p.height, hit)) return;
  unsigned long long* slot = &p.words[uint64_t(hit.y) * p.width + hit.x];
  const unsigned long long key = packDepthWord(hit.viewDepth, index);
  // Early-z: most points of a dense cloud are hidden; a plain read is far cheaper than an atomic
  // and a stale value only costs an atomic that was not needed.
  if (key < *slot) atomicMin(slot, key);
}

__device__ void rasterCompact(const CompactRasterParams& p) {
  __shared__ float matrix[16];
  __shared__ bool culled;
  const Batch& batch = p.batches[blockIdx.x];
  if (threadIdx.x == 0) {
    const Batch local = batch;
    batchMatrix(p.viewProjection, local, matrix);
    culled = batchOutsideFrustum(matrix);
  }
  __syncthreads();
  if (culled) return;
  const uint32_t first = batch.first, count = batch.count;
  // Batches start at multiples of kBatchSize words, so 16-byte loads are aligned.
  const uint4* quads = reinterpret_cast<const uint4*>(p.positions + first);
  const uint32_t quadCount = count / 4;
  for (uint32_t q = threadIdx.x; q < quadCount; q += kRasterBlock) {
    const uint4 words = __ldg(&quads[q]);
    const uint32_t index = first + 4 * q;
    drawQuantized(p, matrix, words.x, index);
    drawQuantized(p, matrix, words.y, index + 1);
    drawQuantized(p, matrix, words.z, index + 2);
    drawQuantized(p, matrix, words.w, index + 3);
  }
  for (uint32_t i = quadCount * 4 + threadIdx.x; i < count; i += kRasterBlock) {
    drawQuantized(p, matrix, __ldg(&p.positions[first + i]), first + i);
  }
}

__device__ void resolveAndClear(const ResolveAndClearParams& p) {
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

__global__ void rasterCompactKernel(CompactRasterParams p) { rasterCompact(p); }
__global__ void resolveAndClearKernel(ResolveAndClearParams p) { resolveAndClear(p); }

class CompactMethod final : public CudaMethod {
 public:
  const char* name() const override { return "compact"; }
  void pointsChanged(const Point* points, uint64_t pointCount, cudaStream_t stream) override {
    buildCompactPoints(points, pointCount, compact_, stream);
  }
  uint64_t residentBytes() const override { return compact_.bytes(); }
  double bytesReadPerPoint() const override { return 4.0 + double(sizeof(Batch)) / kBatchSize; }
  bool readsBackendPoints() const override { return false; }

  void render(const FrameContext& f) override {
    const uint64_t pixels = uint64_t(f.view.width) * f.view.height;
    if (framebuffer_.size() < pixels) {
      framebuffer_.resize(pixels);
      clearWords_ = 0;
    }
    auto* words = reinterpret_cast<unsigned long long*>(framebuffer_.data());
    // The resolve leaves every pixel it read clear, so only a first or larger frame clears.
    const uint64_t toClear = pixels > clearWords_ ? pixels : 0;
    f.recorder->launch("clear", toClear, clearWordsKernel,
                       ClearWordsParams{framebuffer_.data(), toClear});
    clearWords_ = std::max(clearWords_, pixels);
    CompactRasterParams raster{compact_.positions.data(), compact_.batches.data(), {},
                               f.view.width, f.view.height, words};
    std::copy_n(f.view.viewProjection, 16, raster.viewProjection);
    // One block per batch: cull by the batch box, then draw its points.
    f.recorder->launch("raster", compact_.batches.size() * kRasterBlock, rasterCompactKernel,
                       raster, kRasterBlock);
    // Colour of each pixel's closest point; the pixel is cleared for the next frame.
    f.recorder->launch("resolve", pixels, resolveAndClearKernel,
                       ResolveAndClearParams{words, compact_.colors.data(), f.out, pixels,
                                             f.settings->background});
  }

 private:
  CompactPointsDevice compact_;
  DeviceBuffer<uint64_t> framebuffer_;
  uint64_t clearWords_ = 0;  // leading framebuffer words known to hold kEmptyPixel
};

}  // namespace

std::unique_ptr<CudaMethod> createCompactMethod() { return std::make_unique<CompactMethod>(); }

}  // namespace pcv::cuda
