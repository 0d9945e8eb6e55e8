// Method "compact", the fastest: Morton-ordered batches of kBatchSize points, each culled
// against the frustum by its box; 4-byte quantized positions read with 16-byte loads; early-z
// (read the pixel, skip the atomic when not closer); colours fetched once per visible pixel by a
// resolve that also clears the framebuffer for the next frame (no separate clear pass).
// Method "dedup" adds warp-level deduplication: lanes hitting one pixel elect one writer.
#include <algorithm>

#include "cuda_method.hpp"
#include "pcv/raster/compact_points.hpp"

namespace pcv::cuda {
namespace {

constexpr int kRasterBlock = 256;

struct CompactRasterParams {
  const uint32_t* positions;  ///< quantized words, 16-byte aligned per batch
  const Batch* batches;
  ViewTransform view;         ///< the frame's view; points relative to the cloud's origin
  unsigned long long* words;  ///< framebuffer, one word per pixel, kEmptyPixel where clear
};

struct ResolveAndClearParams {
  unsigned long long* words;  ///< read, then reset to kEmptyPixel
  const uint32_t* colors;     ///< RGBA8 per point
  PixelSink out;
  uint64_t pixelCount;
  uint32_t background;
};

template <bool kWarpDedup>
__device__ PCV_FORCE_INLINE void drawQuantized(const CompactRasterParams& p,
                                               const BatchProjection& projection, uint32_t word,
                                               uint32_t index) {
  PixelHit hit;
  const bool drawn = projectQuantized(projection, word, hit);
  const uint32_t pixel = drawn ? uint32_t(hit.y) * uint32_t(p.view.width) + uint32_t(hit.x) : ~0u;
  if (kWarpDedup) {
    // Lanes that hit the same pixel elect the closest (lowest lane = lowest index on ties); only
    // it reads the framebuffer and writes it.
    const unsigned active = __activemask();
    const unsigned peers = __match_any_sync(active, pixel);
    const uint32_t depthBits = drawn ? floatBits(hit.viewDepth) : ~0u;
    const uint32_t closest = __reduce_min_sync(peers, depthBits);
    const unsigned winners = __ballot_sync(peers, depthBits == closest);
    if ((threadIdx.x & 31) != __ffs(winners) - 1) return;
  }
  if (!drawn) return;
  unsigned long long* slot = &p.words[pixel];
  const unsigned long long key = packDepthWord(hit.viewDepth, index);
  // Early-z: most points of a dense cloud are hidden; a plain read is far cheaper than an atomic
  // and a stale value only costs an atomic that was not needed.
  if (key < *slot) atomicMin(slot, key);
}

template <bool kWarpDedup>
__device__ void rasterCompact(const CompactRasterParams& p) {
  __shared__ BatchProjection sharedProjection;
  __shared__ bool culled;
  const Batch& batch = p.batches[blockIdx.x];
  if (threadIdx.x == 0) {
    sharedProjection = makeBatchProjection(p.view, batch);
    culled = batchOutsideView(sharedProjection);
  }
  __syncthreads();
  if (culled) return;
  const BatchProjection projection = sharedProjection;  // into registers
  const uint32_t first = batch.first, count = batch.count;
  // Batches start at multiples of kBatchSize words, so 16-byte loads are aligned.
  const uint4* quads = reinterpret_cast<const uint4*>(p.positions + first);
  const uint32_t quadCount = count / 4;
  for (uint32_t q = threadIdx.x; q < quadCount; q += kRasterBlock) {
    const uint4 words = __ldg(&quads[q]);
    const uint32_t index = first + 4 * q;
    drawQuantized<kWarpDedup>(p, projection, words.x, index);
    drawQuantized<kWarpDedup>(p, projection, words.y, index + 1);
    drawQuantized<kWarpDedup>(p, projection, words.z, index + 2);
    drawQuantized<kWarpDedup>(p, projection, words.w, index + 3);
  }
  for (uint32_t i = quadCount * 4 + threadIdx.x; i < count; i += kRasterBlock) {
    drawQuantized<kWarpDedup>(p, projection, __ldg(&p.positions[first + i]), first + i);
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

__global__ void rasterCompactKernel(CompactRasterParams p) { rasterCompact<false>(p); }
__global__ void rasterCompactDedupKernel(CompactRasterParams p) { rasterCompact<true>(p); }
__global__ void resolveAndClearKernel(ResolveAndClearParams p) { resolveAndClear(p); }

template <bool kWarpDedup>
class CompactMethod final : public CudaMethod {
 public:
  const char* name() const override { return kWarpDedup ? "dedup" : "compact"; }
  double bytesReadPerPoint() const override { return 4.0 + double(sizeof(Batch)) / kBatchSize; }

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
    const CompactPointsDevice& compact = *f.compact;
    const CompactRasterParams raster{compact.positions.data(), compact.batches.data(), f.view,
                                     words};
    // One block per batch: cull by the batch box, then draw its points.
    f.recorder->launch("raster", compact.batches.size() * kRasterBlock,
                       kWarpDedup ? rasterCompactDedupKernel : rasterCompactKernel, raster,
                       kRasterBlock);
    // Colour of each pixel's closest point; the pixel is cleared for the next frame.
    f.recorder->launch("resolve", pixels, resolveAndClearKernel,
                       ResolveAndClearParams{words, compact.colors.data(), f.out, pixels,
                                             f.settings->background});
  }

 private:
  DeviceBuffer<uint64_t> framebuffer_;
  uint64_t clearWords_ = 0;  // leading framebuffer words known to hold kEmptyPixel
};

}  // namespace

std::unique_ptr<CudaMethod> createCompactMethod() {
  return std::make_unique<CompactMethod<false>>();
}
std::unique_ptr<CudaMethod> createCompactDedupMethod() {
  return std::make_unique<CompactMethod<true>>();
}

}  // namespace pcv::cuda
