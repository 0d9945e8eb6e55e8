// Method "compact", the fastest: Morton-ordered batches of kBatchSize points, each culled
// against the frustum by its box; 4-byte quantized positions read with 16-byte loads; early-z
// (read the pixel, skip the atomic when not closer); colours fetched once per visible pixel by a
// resolve that also clears the framebuffer for the next frame (no separate clear pass).
// Method "compact-seq" is the same with each point's framebuffer read waiting for the previous.
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

/// Projects one point; on success sets the framebuffer slot and the depth|index word to try.
template <bool kTested>
__device__ PCV_FORCE_INLINE bool prepareQuantized(const CompactRasterParams& p,
                                                  const BatchProjection& projection,
                                                  uint32_t word, uint32_t index,
                                                  unsigned long long*& slot,
                                                  unsigned long long& key) {
  PixelHit hit;
  if (!projectQuantized<kTested>(projection, word, hit)) return false;
  slot = &p.words[uint32_t(hit.y) * uint32_t(p.view.width) + uint32_t(hit.x)];
  key = packDepthWord(hit.viewDepth, index);
  return true;
}

/// Early-z: most points of a dense cloud are hidden; a plain read is far cheaper than an atomic,
/// and a stale value only costs an atomic that was not needed.
__device__ PCV_FORCE_INLINE void depthTestAndWrite(unsigned long long* slot,
                                                   unsigned long long key,
                                                   unsigned long long current) {
  if (key < current) atomicMin(slot, key);
}

/// Draws the four points of one 16-byte load. kGrouped projects all four first and then reads
/// their four pixels together, so the reads' latencies overlap; otherwise each point's read
/// waits for the one before.
template <bool kGrouped, bool kTested>
__device__ PCV_FORCE_INLINE void drawQuad(const CompactRasterParams& p,
                                          const BatchProjection& projection, uint4 words,
                                          uint32_t index) {
  const uint32_t word[4] = {words.x, words.y, words.z, words.w};
  if (kGrouped) {
    unsigned long long* slot[4];
    unsigned long long key[4], current[4];
    bool drawn[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      drawn[k] = prepareQuantized<kTested>(p, projection, word[k], index + k, slot[k], key[k]);
    }
#pragma unroll
    for (int k = 0; k < 4; ++k) current[k] = drawn[k] ? *slot[k] : 0;
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      if (drawn[k]) depthTestAndWrite(slot[k], key[k], current[k]);
    }
  } else {
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      unsigned long long* slot;
      unsigned long long key;
      if (prepareQuantized<kTested>(p, projection, word[k], index + k, slot, key)) {
        depthTestAndWrite(slot, key, *slot);
      }
    }
  }
}

/// Draws the points of one batch, four per 16-byte load.
template <bool kGrouped, bool kTested>
__device__ PCV_FORCE_INLINE void drawBatch(const CompactRasterParams& p,
                                           const BatchProjection& projection, uint32_t first,
                                           uint32_t count) {
  // Batches start at multiples of kBatchSize words, so 16-byte loads are aligned.
  const uint4* quads = reinterpret_cast<const uint4*>(p.positions + first);
  const uint32_t quadCount = count / 4;
  for (uint32_t q = threadIdx.x; q < quadCount; q += kRasterBlock) {
    drawQuad<kGrouped, kTested>(p, projection, __ldg(&quads[q]), first + 4 * q);
  }
  for (uint32_t i = quadCount * 4 + threadIdx.x; i < count; i += kRasterBlock) {
    unsigned long long* slot;
    unsigned long long key;
    if (prepareQuantized<kTested>(p, projection, __ldg(&p.positions[first + i]), first + i, slot,
                                  key)) {
      depthTestAndWrite(slot, key, *slot);
    }
  }
}

template <bool kGrouped>
__device__ void rasterCompact(const CompactRasterParams& p) {
  __shared__ BatchProjection sharedProjection;
  __shared__ BatchVisibility visibility;
  const Batch& batch = p.batches[blockIdx.x];
  if (threadIdx.x == 0) {
    sharedProjection = makeBatchProjection(p.view, batch);
    visibility = classifyBatch(sharedProjection);
  }
  __syncthreads();
  if (visibility == BatchVisibility::kOutside) return;
  const BatchProjection projection = sharedProjection;  // into registers
  // Batches wholly inside the view skip the per-point range tests: all their points pass them.
  if (visibility == BatchVisibility::kInside) {
    drawBatch<kGrouped, false>(p, projection, batch.first, batch.count);
  } else {
    drawBatch<kGrouped, true>(p, projection, batch.first, batch.count);
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

__global__ void rasterCompactKernel(CompactRasterParams p) { rasterCompact<true>(p); }
__global__ void __launch_bounds__(kRasterBlock, 5) rasterCompactOccKernel(CompactRasterParams p) {
  rasterCompact<true>(p);
}
__global__ void rasterCompactSequentialKernel(CompactRasterParams p) { rasterCompact<false>(p); }
__global__ void resolveAndClearKernel(ResolveAndClearParams p) { resolveAndClear(p); }

template <bool kGrouped, bool kOcc = false>
class CompactMethod final : public CudaMethod {
 public:
  const char* name() const override { return kOcc ? "compact-occ" : kGrouped ? "compact" : "compact-seq"; }
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
                       kOcc ? rasterCompactOccKernel : kGrouped ? rasterCompactKernel : rasterCompactSequentialKernel, raster,
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
  return std::make_unique<CompactMethod<true>>();
}
std::unique_ptr<CudaMethod> createCompactOccMethod() {
  return std::make_unique<CompactMethod<true, true>>();
}
std::unique_ptr<CudaMethod> createCompactSequentialMethod() {
  return std::make_unique<CompactMethod<false>>();
}

}  // namespace pcv::cuda
