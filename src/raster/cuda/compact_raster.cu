#include "compact_raster.cuh"

#include "pcv/cuda/dependent_launch.cuh"

namespace pcv::cuda {
namespace {

constexpr int kRasterBlock = 256;

struct CullParams {
  const Batch* batches;
  uint32_t batchCount;
  ViewTransform view;
  CulledBatch* culled;  ///< one per batch
};

struct CompactRasterParams {
  const uint32_t* positions;  ///< quantized words, 16-byte aligned per batch
  const Batch* batches;
  const CulledBatch* culled;
  uint32_t width;             ///< pixels per framebuffer row
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
  beginDependentKernel();
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

__global__ void cullBatchesKernel(CullParams p) {
  cullBatch(p);
}
__global__ void rasterCompactKernel(CompactRasterParams p) {
  rasterCompact(p);
}

}  // namespace

void CompactRasterStages::draw(const FrameContext& f, unsigned long long* words) {
  const CompactPointsDevice& compact = *f.compact;
  const auto batchCount = uint32_t(compact.batches.size());
  culled_.reserve(batchCount);
  // Each batch's projection and visibility.
  f.recorder->launchDependent(
      "cull", uint64_t(batchCount) * 8, cullBatchesKernel,
      CullParams{compact.batches.data(), batchCount, f.view, culled_.data()}, 128);
  // kSlices blocks per batch; those of batches outside the view return at once.
  f.recorder->launchDependent("raster", uint64_t(batchCount) * kSlices * kRasterBlock,
                              rasterCompactKernel,
                              CompactRasterParams{compact.positions.data(), compact.batches.data(),
                                                  culled_.data(), uint32_t(f.view.width), words},
                              kRasterBlock);
}

}  // namespace pcv::cuda
