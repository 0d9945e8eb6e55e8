#include "compact_raster.cuh"

#include "pcv/cuda/dependent_launch.cuh"

namespace pcv::cuda {
namespace {

constexpr int kRasterBlock = 256;

/// Blocks per batch: two halves of a batch measured faster than one block (the tail of the last
/// wave is shorter) and than five (each block re-reads the batch's pixels into another L1).
constexpr uint32_t kSlices = 2;

struct CullParams {
  const Batch* batches;   ///< the pool's batch slots
  const uint32_t* drawn;  ///< the slots to draw, or null for slots [0, batchCount)
  uint32_t batchCount;    ///< batches drawn
  ViewTransform view;
  ClipFrame clip;       ///< the frame's clip region (clip.active == 0: none)
  FilterFrame filter;   ///< the frame's point filter (filter.active == 0: none)
  FilterArrays filterArrays;      ///< the pool's filter data
  CulledBatch* culled;  ///< one per batch drawn
  BatchClip* clips;     ///< one per batch drawn, written for batches the region's faces cross
};

struct CompactRasterParams {
  const uint32_t* positions;  ///< quantized words, 16-byte aligned per batch
  const CulledBatch* culled;  ///< one per batch drawn
  const BatchClip* clips;     ///< one per batch drawn, read for batches with tests bit 0
  FilterFrame filter;         ///< the frame's point filter, tested for batches with tests bit 1
  FilterArrays filterArrays;  ///< the pool's filter data (device memory)
  ClipPolygon polygon;        ///< the frame's clip polygon, for batches whose clip tests it
  uint32_t width;             ///< pixels per framebuffer row
  uint32_t pixelBias;         ///< -kFloorBias * (width + 1), mod 2^32: see drawQuantized
  unsigned long long* words;  ///< framebuffer, one word per pixel, kEmptyPixel where clear
};

/// Eight lanes per batch, one per corner; a few batches per warp keep the chain of float math
/// per thread short, so the stage takes microseconds even for small clouds.
__device__ void cullBatch(const CullParams& p) {
  beginDependentKernel();
  const uint32_t thread = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t b = thread / 8;
  const int corner = int(thread % 8);
  const bool active = b < p.batchCount;
  BatchProjection projection{};
  CornerClass c{0x3f, true};
  uint32_t first = 0, count = 0, slot = 0;
  Batch batch{};
  if (active) {
    slot = drawnBatchSlot(p.drawn, b);
    batch = p.batches[slot];
    first = batch.first;
    count = batch.count;
    projection = makeBatchProjection(p.view, batch);
    c = classifyCorner(projection, corner);
  }
  // AND of the corner classes over the eight lanes of the batch (aligned groups of eight).
  uint32_t outsideAll = c.outside, insideAll = c.inside;
  for (int offset = 1; offset < 8; offset *= 2) {
    outsideAll &= __shfl_xor_sync(0xffffffffu, outsideAll, offset);
    insideAll &= __shfl_xor_sync(0xffffffffu, insideAll, offset);
  }
  if (active && corner == 0) {
    BatchClip clip{};
    const BatchClipClass clipClass = classifyBatchClip(p.clip, batch, clip);
    const bool clipTest = clipClass == BatchClipClass::kTested;
    if (clipTest) p.clips[b] = clip;
    const BatchFilterClass filterClass = classifyBatchFilter(p.filter, p.filterArrays, slot);
    // Free slots hold no points, and a batch the clip region cuts away or the filter leaves
    // nothing of has nothing to draw.
    const BatchVisibility visibility =
        count == 0 || clipClass == BatchClipClass::kNone || filterClass == BatchFilterClass::kNone
            ? BatchVisibility::kOutside
            : combineCorners(outsideAll, insideAll != 0);
    const uint32_t tests =
        (clipTest ? 1u : 0u) | (filterClass == BatchFilterClass::kTested ? 2u : 0u);
    p.culled[b] = CulledBatch{projection, visibility, first, count, tests};
  }
}

/// Reads the depth half of a framebuffer word, asking L2 to keep the line: the framebuffer is
/// read again by every batch over the pixel and by the resolve, the points stream past it.
__device__ PCV_FORCE_INLINE uint32_t readDepthKeptInL2(const unsigned long long* word) {
  const uint32_t* depth = reinterpret_cast<const uint32_t*>(word) + 1;  // little-endian high half
  // L2 cache hints exist from sm_80 on.
#if __CUDA_ARCH__ >= 800
  uint64_t policy;
  asm("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(policy));
  uint32_t value;
  asm volatile("ld.global.L2::cache_hint.u32 %0, [%1], %2;"
               : "=r"(value)
               : "l"(depth), "l"(policy));
  return value;
#else
  return *depth;
#endif
}

/// Reads 16 bytes of positions, each read once per frame: not kept in L1, first out of L2.
__device__ PCV_FORCE_INLINE uint4 readStreaming(const uint4* address) {
#if __CUDA_ARCH__ >= 800
  uint64_t policy;
  asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
  uint4 v;
  asm("ld.global.nc.L1::no_allocate.L2::cache_hint.v4.u32 {%0, %1, %2, %3}, [%4], %5;"
      : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
      : "l"(address), "l"(policy));
  return v;
#else
  return __ldcs(address);
#endif
}

/// Draws one point. Early-z: most points of a dense cloud are hidden; a plain read is far
/// cheaper than an atomic, and a stale value only costs an atomic that was not needed. Equal
/// depths go to the atomic, which keeps the lower index. With kClipped the point is first tested
/// against the batch's clip region and the frame's filter, as the batch's `tests` bits say.
template <bool kTested, bool kClipped>
__device__ PCV_FORCE_INLINE void drawQuantized(const CompactRasterParams& p,
                                               const BatchProjection& projection, uint32_t word,
                                               uint32_t index, const BatchClip& clip,
                                               uint32_t tests) {
  if (kClipped && (tests & 1u) && !clipKeepsQuantized(clip, p.polygon, word)) return;
  if (kClipped && (tests & 2u) && !filterKeepsSlot(p.filter, p.filterArrays, index)) return;
  ScreenPoint point;
  if (!projectQuantizedToScreen<kTested>(projection, word, point)) return;
  // The pixel index row * width + column, with the floors' biases removed once by pixelBias (the
  // same pixel as projectQuantized's, in two instructions fewer).
  const uint32_t column = floorToUintBiased(point.x), row = floorToUintBiased(point.y);
  const uint32_t pixel = row * p.width + column + p.pixelBias;
  const uint32_t depth = floatBits(point.w);
  unsigned long long* slot = &p.words[pixel];
  if (depth <= readDepthKeptInL2(slot)) atomicMin(slot, packDepthWord(point.w, index));
}

/// Draws points [begin, end) of the positions, four per 16-byte load; begin is a multiple of 4.
/// With kClipped each point is tested against `clip` (in shared memory: no registers held).
template <bool kTested, bool kClipped>
__device__ PCV_FORCE_INLINE void drawRange(const CompactRasterParams& p,
                                           const BatchProjection& projection, uint32_t begin,
                                           uint32_t end, const BatchClip& clip, uint32_t tests) {
  const uint4* quads = reinterpret_cast<const uint4*>(p.positions + begin);
  const uint32_t quadCount = (end - begin) / 4;
  for (uint32_t q = threadIdx.x; q < quadCount; q += kRasterBlock) {
    const uint4 w = readStreaming(&quads[q]);
    const uint32_t index = begin + 4 * q;
    drawQuantized<kTested, kClipped>(p, projection, w.x, index, clip, tests);
    drawQuantized<kTested, kClipped>(p, projection, w.y, index + 1, clip, tests);
    drawQuantized<kTested, kClipped>(p, projection, w.z, index + 2, clip, tests);
    drawQuantized<kTested, kClipped>(p, projection, w.w, index + 3, clip, tests);
  }
  for (uint32_t i = begin + quadCount * 4 + threadIdx.x; i < end; i += kRasterBlock) {
    drawQuantized<kTested, kClipped>(p, projection, __ldg(&p.positions[i]), i, clip, tests);
  }
}

template <bool kClipped>
__device__ PCV_FORCE_INLINE void drawSlice(const CompactRasterParams& p, const CulledBatch& culled,
                                           uint32_t begin, uint32_t end, const BatchClip& clip) {
  if (kClipped) {
    // The clip test, and the view's range tests too (one variant fewer; they only pass where the
    // view keeps the points anyway).
    drawRange<true, true>(p, culled.projection, begin, end, clip, culled.tests);
  } else if (culled.visibility == BatchVisibility::kInside) {
    // Batches wholly inside the view skip the per-point range tests: all their points pass them.
    drawRange<false, false>(p, culled.projection, begin, end, clip, 0u);
  } else {
    drawRange<true, false>(p, culled.projection, begin, end, clip, 0u);
  }
}

/// Block blockIdx.x draws slice (blockIdx.x % kSlices) of batch (blockIdx.x / kSlices): with
/// kClipped the batches the clip region's faces cross or the filter tests point by point, else
/// all the others. Two kernels, so the
/// per-point clip test's registers (it spills under the 32 of full occupancy) never weigh on
/// frames or batches without it.
template <bool kClipped>
__device__ void rasterCompact(const CompactRasterParams& p) {
  static_assert(kBatchSize % (4 * kSlices) == 0, "slices must hold whole 16-byte loads");
  __shared__ BatchClip clip;
  beginDependentKernel();
  const uint32_t b = blockIdx.x / kSlices;
  const CulledBatch culled = p.culled[b];
  const uint32_t first = culled.first, count = culled.count;
  if (culled.visibility == BatchVisibility::kOutside) return;
  if ((culled.tests != 0) != kClipped) return;
  constexpr uint32_t kSliceSize = kBatchSize / kSlices;
  const uint32_t begin = first + (blockIdx.x % kSlices) * kSliceSize;
  const uint32_t end = min(begin + kSliceSize, first + count);
  if (begin >= end) return;
  if (kClipped) {
    if (threadIdx.x == 0 && (culled.tests & 1u)) clip = p.clips[b];
    __syncthreads();
  }
  drawSlice<kClipped>(p, culled, begin, end, clip);
}

// __grid_constant__: the clip polygon's edges are read by index straight from the parameters,
// never copied to each thread's local memory.
__global__ void cullBatchesKernel(const __grid_constant__ CullParams p) {
  cullBatch(p);
}
// Full occupancy: as many 256-thread blocks as the SM holds threads (on sm_80 and sm_90, 2048
// threads: eight blocks, so at most 32 registers).
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 800 || __CUDA_ARCH__ == 900)
constexpr int kRasterBlocksPerSm = 2048 / kRasterBlock;
#elif defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 750
constexpr int kRasterBlocksPerSm = 1024 / kRasterBlock;
#else
constexpr int kRasterBlocksPerSm = 1536 / kRasterBlock;
#endif
__global__ void __launch_bounds__(kRasterBlock, kRasterBlocksPerSm)
    rasterCompactKernel(CompactRasterParams p) {
  rasterCompact<false>(p);
}
// The clip test's registers spill under the full-occupancy bound (32 on sm_90); five eighths of
// the blocks (48 registers) hold them.
__global__ void __launch_bounds__(kRasterBlock, kRasterBlocksPerSm * 5 / 8)
    rasterClippedKernel(const __grid_constant__ CompactRasterParams p) {
  rasterCompact<true>(p);
}

}  // namespace

void CompactRasterStages::draw(const FrameContext& f, unsigned long long* words) {
  const DevicePointPool& pool = *f.pool;
  const uint32_t batchCount = f.batchCount;
  const auto width = uint32_t(f.view.width);
  culled_.reserve(batchCount);
  if (f.clip.active) clips_.reserve(batchCount);
  // Each batch's projection and visibility, and what the clip region leaves of it.
  f.recorder->launchDependent("cull", uint64_t(batchCount) * 8, cullBatchesKernel,
                              CullParams{pool.batches.data(), f.drawnBatches, batchCount, f.view,
                                         f.clip, f.filter, pool.filterArrays(), culled_.data(), clips_.data()},
                              128);
  // kSlices blocks per batch; those of batches outside the view return at once.
  const CompactRasterParams raster{pool.positions.data(),
                                   culled_.data(),
                                   clips_.data(),
                                   f.filter,
                                   pool.filterArrays(),
                                   f.clip.polygon,
                                   width,
                                   0u - kFloorBias * (width + 1),
                                   words};
  f.recorder->launchDependent("raster", uint64_t(batchCount) * kSlices * kRasterBlock,
                              rasterCompactKernel, raster, kRasterBlock);
  // The batches the clip region's faces cross or the filter tests, point by point; the rest of
  // its blocks return.
  if (f.clip.active || f.filter.active) {
    f.recorder->launchDependent("clip raster", uint64_t(batchCount) * kSlices * kRasterBlock,
                                rasterClippedKernel, raster, kRasterBlock);
  }
}

}  // namespace pcv::cuda
