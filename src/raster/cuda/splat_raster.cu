#include "splat_raster.cuh"

#include "shared/framebuffer_word.hpp"
#include "shared/quality_resolve.hpp"

namespace pcv::cuda {
namespace {

/// Calls visit(pixel, depth, index) for each footprint pixel of the block's batch; the batch is
/// culled against the image grown by the largest footprint's reach, and by the clip region.
template <typename Visit>
__device__ void splatBatch(const uint32_t* positions, const Batch* batches, const uint32_t* drawn,
                           const ViewTransform& view, const SplatFrame& splat,
                           const ClipFrame& clipFrame, const FilterFrame& filter,
                           const FilterArrays& filterArrays, Visit visit) {
  __shared__ BatchProjection sharedProjection;
  __shared__ BatchClip clip;
  __shared__ bool culled, clipTested;
  __shared__ uint32_t filterTests;
  const uint32_t slot = drawn ? drawn[blockIdx.x] : blockIdx.x;
  const Batch& batch = batches[slot];
  if (threadIdx.x == 0) {
    sharedProjection = makeBatchProjection(view, batch);
    const BatchClipClass clipClass = classifyBatchClip(clipFrame, batch, clip);
    filterTests = batchFilterTests(filter, filterArrays, slot);
    culled = batchOutsideView(sharedProjection, splat.marginPx) ||
             clipClass == BatchClipClass::kNone || (filterTests & kFilterDropsAll) != 0;
    clipTested = clipClass == BatchClipClass::kTested;
  }
  __syncthreads();
  if (culled) return;
  const BatchProjection projection = sharedProjection;
  const uint32_t tests = filterTests;
  const uint32_t first = batch.first, count = batch.count;
  for (uint32_t i = threadIdx.x; i < count; i += blockDim.x) {
    const uint32_t index = first + i;
    const uint32_t word = __ldg(&positions[index]);
    if (clipTested && !clipKeepsQuantized(clip, clipFrame.polygon, word)) continue;
    if (tests != 0 && !filterKeepsSlot(filter, filterArrays, tests, index)) continue;
    splatQuantized(splat, projection, word,
                   [&](uint32_t pixel, float depth) { visit(pixel, depth, index); });
  }
}

__device__ void splatRaster(const SplatRasterParams& p) {
  splatBatch(p.positions, p.batches, p.drawn, p.view, p.splat, p.clip, p.filter,
             p.filterArrays, [&](uint32_t pixel, float depth, uint32_t index) {
               const unsigned long long key = packDepthWord(depth, index);
               // Early-z: a plain read is far cheaper than an atomic that would not win.
               if (key < p.words[pixel]) atomicMin(&p.words[pixel], key);
             });
}

__device__ void splatAccumulate(const SplatAccumulateParams& p) {
  splatBatch(p.positions, p.batches, p.drawn, p.view, p.splat, p.clip, p.filter,
             p.filterArrays, [&](uint32_t pixel, float depth, uint32_t index) {
               if (!blendsInto(p.words[pixel], depth, p.depthScale)) return;
               const uint32_t rgba = __ldg(&p.colors[index]);
               uint32_t* slot = p.accumulators + uint64_t(pixel) * kAccumulatorsPerPixel;
               atomicAdd(&slot[0], redOf(rgba));
               atomicAdd(&slot[1], greenOf(rgba));
               atomicAdd(&slot[2], blueOf(rgba));
               atomicAdd(&slot[3], 1u);
             });
}

}  // namespace

__global__ void splatRasterKernel(const __grid_constant__ SplatRasterParams p) {
  splatRaster(p);
}
__global__ void splatAccumulateKernel(const __grid_constant__ SplatAccumulateParams p) {
  splatAccumulate(p);
}

}  // namespace pcv::cuda
