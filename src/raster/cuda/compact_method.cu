// Method "compact", the fastest: Morton-ordered batches of kBatchSize points with 4-byte quantized
// positions (include/pcv/raster/compact_points.hpp). Per frame:
//   cull    eight threads per batch, one per box corner: the batch's projection to pixels, and
//           whether its box is outside the view (skipped), inside (its points skip the range
//           tests) or partial.
//   raster  kSlices blocks per batch, 16-byte loads of 4 points per thread, early-z (read the
//           pixel, skip the atomic when not closer), 64-bit atomicMin of depth|index.
//   resolve colours fetched once per visible pixel; the pixel is cleared for the next frame, so
//           there is no clear pass after the first frame.
#include <algorithm>

#include "cuda_method.hpp"
#include "pcv/raster/compact_points.hpp"

namespace pcv::cuda {
namespace {

constexpr int kRasterBlock = 256;

/// What the cull stage leaves for the raster stage about one batch.
struct CulledBatch {
  BatchProjection projection;
  BatchVisibility visibility;
};

struct CullParams {
  const Batch* batches;
  uint32_t batchCount;
  ViewTransform view;
  CulledBatch* culled;        ///< one per batch
};

struct CompactRasterParams {
  const uint32_t* positions;  ///< quantized words, 16-byte aligned per batch
  const Batch* batches;
  const CulledBatch* culled;
  uint32_t width;             ///< pixels per framebuffer row
  unsigned long long* words;  ///< framebuffer, one word per pixel, kEmptyPixel where clear
};

struct ResolveAndClearParams {
  unsigned long long* words;  ///< read, then reset to kEmptyPixel
  const uint32_t* colors;     ///< RGBA8 per point
  PixelSink out;
  uint64_t pixelCount;
  uint32_t background;
};

/// Eight lanes per batch, one per corner; a few batches per warp keep the chain of float math
/// per thread short, so the stage takes microseconds even for small clouds.
__device__ void cullBatch(const CullParams& p) {
  const uint32_t thread = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t b = thread / 8;
  const int corner = int(thread % 8);
  const bool active = b < p.batchCount;
  BatchProjection projection{};
  CornerClass c{0x3f, true};
  if (active) {
    projection = makeBatchProjection(p.view, p.batches[b]);
    c = classifyCorner(projection, corner);
  }
  // AND over the eight lanes of the batch (they are aligned groups of eight in the warp).
  uint32_t outsideAll = c.outside, insideAll = c.inside;
  for (int offset = 1; offset < 8; offset *= 2) {
    outsideAll &= __shfl_xor_sync(0xffffffffu, outsideAll, offset);
    insideAll &= __shfl_xor_sync(0xffffffffu, insideAll, offset);
  }
  if (active && corner == 0) {
    p.culled[b] = CulledBatch{projection, combineCorners(outsideAll, insideAll != 0)};
  }
}

/// Draws one point. Early-z: most points of a dense cloud are hidden; a plain read is far
/// cheaper than an atomic, and a stale value only costs an atomic that was not needed.
template <bool kTested>
__device__ PCV_FORCE_INLINE void drawQuantized(const CompactRasterParams& p,
                                               const BatchProjection& projection, uint32_t word,
                                               uint32_t index) {
  PixelHit hit;
  if (!projectQuantized<kTested>(projection, word, hit)) return;
  unsigned long long* slot = &p.words[uint32_t(hit.y) * p.width + uint32_t(hit.x)];
  const unsigned long long key = packDepthWord(hit.viewDepth, index);
  if (key < *slot) atomicMin(slot, key);
}

/// Draws points [begin, end) of the positions, four per 16-byte load; begin is a multiple of 4.
template <bool kTested>
__device__ PCV_FORCE_INLINE void drawRange(const CompactRasterParams& p,
                                           const BatchProjection& projection, uint32_t begin,
                                           uint32_t end) {
  const uint4* quads = reinterpret_cast<const uint4*>(p.positions + begin);
  const uint32_t quadCount = (end - begin) / 4;
  for (uint32_t q = threadIdx.x; q < quadCount; q += kRasterBlock) {
    const uint4 w = __ldg(&quads[q]);
    const uint32_t index = begin + 4 * q;
    drawQuantized<kTested>(p, projection, w.x, index);
    drawQuantized<kTested>(p, projection, w.y, index + 1);
    drawQuantized<kTested>(p, projection, w.z, index + 2);
    drawQuantized<kTested>(p, projection, w.w, index + 3);
  }
  for (uint32_t i = begin + quadCount * 4 + threadIdx.x; i < end; i += kRasterBlock) {
    drawQuantized<kTested>(p, projection, __ldg(&p.positions[i]), i);
  }
}

/// Blocks per batch: two halves of a batch measured faster than one block (the tail of the last
/// wave is shorter) and than five (each block re-reads the batch's pixels into another L1).
constexpr uint32_t kSlices = 2;

/// Block blockIdx.x draws slice (blockIdx.x % kSlices) of batch (blockIdx.x / kSlices).
__device__ void rasterCompact(const CompactRasterParams& p) {
  static_assert(kBatchSize % (4 * kSlices) == 0, "slices must hold whole 16-byte loads");
  const uint32_t b = blockIdx.x / kSlices;
  const BatchVisibility visibility = p.culled[b].visibility;
  if (visibility == BatchVisibility::kOutside) return;
  const Batch& batch = p.batches[b];
  constexpr uint32_t kSliceSize = kBatchSize / kSlices;
  const uint32_t begin = batch.first + (blockIdx.x % kSlices) * kSliceSize;
  const uint32_t end = min(begin + kSliceSize, batch.first + batch.count);
  if (begin >= end) return;
  const BatchProjection projection = p.culled[b].projection;
  // Batches wholly inside the view skip the per-point range tests: all their points pass them.
  if (visibility == BatchVisibility::kInside) {
    drawRange<false>(p, projection, begin, end);
  } else {
    drawRange<true>(p, projection, begin, end);
  }
}

__device__ PCV_FORCE_INLINE uint32_t colorOfWord(const ResolveAndClearParams& p, uint64_t word) {
  return word == kEmptyPixel ? p.background : __ldg(&p.colors[payloadOfWord(word)]);
}

/// Four pixels per thread with two 16-byte framebuffer reads, for a pixel count divisible by 4.
__device__ void resolveAndClearQuads(const ResolveAndClearParams& p) {
  const uint64_t quad = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
  if (4 * quad >= p.pixelCount) return;
  ulonglong2* words = reinterpret_cast<ulonglong2*>(p.words) + 2 * quad;
  const ulonglong2 a = words[0], b = words[1];
  const uint4 colors = make_uint4(colorOfWord(p, a.x), colorOfWord(p, a.y), colorOfWord(p, b.x),
                                  colorOfWord(p, b.y));
  if (p.out.rgba) {
    reinterpret_cast<uint4*>(p.out.rgba)[quad] = colors;
  } else {
    p.out.store(4 * quad, colors.x);
    p.out.store(4 * quad + 1, colors.y);
    p.out.store(4 * quad + 2, colors.z);
    p.out.store(4 * quad + 3, colors.w);
  }
  const ulonglong2 empty = make_ulonglong2(kEmptyPixel, kEmptyPixel);
  if (a.x != kEmptyPixel || a.y != kEmptyPixel) words[0] = empty;
  if (b.x != kEmptyPixel || b.y != kEmptyPixel) words[1] = empty;
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

__global__ void cullBatchesKernel(CullParams p) { cullBatch(p); }
__global__ void rasterCompactKernel(CompactRasterParams p) { rasterCompact(p); }

__global__ void resolveAndClearQuadsKernel(ResolveAndClearParams p) { resolveAndClearQuads(p); }
__global__ void resolveAndClearKernel(ResolveAndClearParams p) { resolveAndClear(p); }

class CompactMethod final : public CudaMethod {
 public:
  const char* name() const override { return "compact"; }
  double bytesReadPerPoint() const override { return 4.0 + double(sizeof(Batch)) / kBatchSize; }

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
    const CompactPointsDevice& compact = *f.compact;
    const auto batchCount = uint32_t(compact.batches.size());
    culled_.reserve(batchCount);
    // Each batch's projection and visibility.
    f.recorder->launch("cull", uint64_t(batchCount) * 8, cullBatchesKernel,
                       CullParams{compact.batches.data(), batchCount, f.view, culled_.data()},
                       128);
    // kSlices blocks per batch; those of batches outside the view return at once.
    f.recorder->launch("raster", uint64_t(batchCount) * kSlices * kRasterBlock,
                       rasterCompactKernel,
                       CompactRasterParams{compact.positions.data(), compact.batches.data(),
                                           culled_.data(), uint32_t(f.view.width), words},
                       kRasterBlock);
    // Colour of each pixel's closest point; the pixel is cleared for the next frame.
    const ResolveAndClearParams resolve{words, compact.colors.data(), f.out, pixels,
                                        f.settings->background};
    if (pixels % 4 == 0) {
      f.recorder->launch("resolve", pixels / 4, resolveAndClearQuadsKernel, resolve);
    } else {
      f.recorder->launch("resolve", pixels, resolveAndClearKernel, resolve);
    }
  }

 private:
  DeviceBuffer<uint64_t> framebuffer_;
  uint64_t clearWords_ = 0;  // leading framebuffer words known to hold kEmptyPixel
  DeviceBuffer<CulledBatch> culled_;
};

}  // namespace

std::unique_ptr<CudaMethod> createCompactMethod() { return std::make_unique<CompactMethod>(); }

}  // namespace pcv::cuda
