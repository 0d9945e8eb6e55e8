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
  CulledBatch* culled;  ///< one per batch drawn
};

struct CompactRasterParams {
  const uint32_t* positions;  ///< quantized words, 16-byte aligned per batch
  const CulledBatch* culled;  ///< one per batch drawn
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
  uint32_t first = 0, count = 0;
  if (active) {
    const Batch batch = p.batches[drawnBatchSlot(p.drawn, b)];
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
    // Free slots hold no points: nothing to draw.
    const BatchVisibility visibility =
        count == 0 ? BatchVisibility::kOutside : combineCorners(outsideAll, insideAll != 0);
    p.culled[b] = CulledBatch{projection, visibility, first, count, 0u};
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
/// depths go to the atomic, which keeps the lower index.
template <bool kTested>
__device__ PCV_FORCE_INLINE void drawQuantized(const CompactRasterParams& p,
                                               const BatchProjection& projection, uint32_t word,
                                               uint32_t index) {
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
template <bool kTested>
__device__ PCV_FORCE_INLINE void drawRange(const CompactRasterParams& p,
                                           const BatchProjection& projection, uint32_t begin,
                                           uint32_t end) {
  const uint4* quads = reinterpret_cast<const uint4*>(p.positions + begin);
  const uint32_t quadCount = (end - begin) / 4;
  for (uint32_t q = threadIdx.x; q < quadCount; q += kRasterBlock) {
    const uint4 w = readStreaming(&quads[q]);
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

__device__ PCV_FORCE_INLINE void drawSlice(const CompactRasterParams& p, const CulledBatch& culled,
                                           uint32_t begin, uint32_t end) {
  // Batches wholly inside the view skip the per-point range tests: all their points pass them.
  if (culled.visibility == BatchVisibility::kInside) {
    drawRange<false>(p, culled.projection, begin, end);
  } else {
    drawRange<true>(p, culled.projection, begin, end);
  }
}

/// Block blockIdx.x draws slice (blockIdx.x % kSlices) of batch (blockIdx.x / kSlices).
__device__ void rasterCompact(const CompactRasterParams& p) {
  static_assert(kBatchSize % (4 * kSlices) == 0, "slices must hold whole 16-byte loads");
  beginDependentKernel();
  const uint32_t b = blockIdx.x / kSlices;
  const CulledBatch culled = p.culled[b];
  const uint32_t first = culled.first, count = culled.count;
  if (culled.visibility == BatchVisibility::kOutside) return;
  constexpr uint32_t kSliceSize = kBatchSize / kSlices;
  const uint32_t begin = first + (blockIdx.x % kSlices) * kSliceSize;
  const uint32_t end = min(begin + kSliceSize, first + count);
  if (begin >= end) return;
  drawSlice(p, culled, begin, end);
}

__global__ void cullBatchesKernel(CullParams p) {
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
  rasterCompact(p);
}

}  // namespace

void CompactRasterStages::draw(const FrameContext& f, unsigned long long* words) {
  const DevicePointPool& pool = *f.pool;
  const uint32_t batchCount = f.batchCount;
  const auto width = uint32_t(f.view.width);
  culled_.reserve(batchCount);
  // Each batch's projection and visibility.
  f.recorder->launchDependent(
      "cull", uint64_t(batchCount) * 8, cullBatchesKernel,
      CullParams{pool.batches.data(), f.drawnBatches, batchCount, f.view, culled_.data()}, 128);
  // kSlices blocks per batch; those of batches outside the view return at once.
  f.recorder->launchDependent("raster", uint64_t(batchCount) * kSlices * kRasterBlock,
                              rasterCompactKernel,
                              CompactRasterParams{pool.positions.data(), culled_.data(), width,
                                                  0u - kFloorBias * (width + 1), words},
                              kRasterBlock);
}

}  // namespace pcv::cuda
