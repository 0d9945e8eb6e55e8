#include "quality_pipeline.hpp"

#include "quality_resolve.cuh"
#include "splat_raster.cuh"

namespace pcv::cuda {

const uint64_t* QualityPipeline::drawWords(const FrameContext& f, const QualitySettings& quality) {
  const uint64_t pixels = uint64_t(f.view.width) * f.view.height;
  const DevicePointPool& pool = *f.pool;
  const uint64_t batchThreads = uint64_t(f.batchCount) * kSplatBlock;
  words_.reserve(pixels);
  if (quality.fillRadiusPx > 0) filled_.reserve(pixels);
  cudaStream_t stream = f.recorder->stream();

  // Every word to kEmptyPixel (all bits set).
  CUDA_CHECK(cudaMemsetAsync(words_.data(), 0xff, pixels * sizeof(uint64_t), stream));
  f.recorder->endStage("clear");

  const SplatFrame splat = makeSplatFrame(quality, f.view);
  auto* words = reinterpret_cast<unsigned long long*>(words_.data());
  if (isSinglePixel(splat)) {
    // One-pixel points: the compact method's cull and raster, which give the same words.
    onePixelStages_.draw(f, words);
  } else {
    // Closest point per footprint pixel: 64-bit atomicMin of depth|index, one block per batch.
    f.recorder->launch("splat", batchThreads, splatRasterKernel,
                       SplatRasterParams{pool.positions.data(), pool.batches.data(), f.drawnBatches,
                                         f.view, splat, f.clip, f.filter,
                                         pool.filterArrays(), words},
                       kSplatBlock);
  }

  // Holes take the closest surrounding point (adaptive size).
  const uint64_t* finalWords = words_.data();
  if (quality.fillRadiusPx > 0) {
    f.recorder->launch("fill", pixels, fillHolesKernel,
                       FillParams{words_.data(), filled_.data(), f.view.width, f.view.height,
                                  quality.fillRadiusPx});
    finalWords = filled_.data();
  }
  return finalWords;
}

void QualityPipeline::render(const FrameContext& f, const QualitySettings& quality) {
  const uint64_t pixels = uint64_t(f.view.width) * f.view.height;
  const DevicePointPool& pool = *f.pool;
  const uint64_t batchThreads = uint64_t(f.batchCount) * kSplatBlock;
  const uint64_t* finalWords = drawWords(f, quality);
  const SplatFrame splat = makeSplatFrame(quality, f.view);

  // Colour sums and counts of the points near each pixel's closest depth.
  if (quality.highQuality) {
    accumulators_.reserve(pixels * kAccumulatorsPerPixel);
    CUDA_CHECK(cudaMemsetAsync(accumulators_.data(), 0,
                               pixels * kAccumulatorsPerPixel * sizeof(uint32_t),
                               f.recorder->stream()));
    f.recorder->launch(
        "accumulate", batchThreads, splatAccumulateKernel,
        SplatAccumulateParams{pool.positions.data(), pool.colors.data(), pool.batches.data(),
                              f.drawnBatches, f.view, splat, f.clip, f.filter,
                              pool.filterArrays(), finalWords,
                              1.0f + quality.hqDepthRange, accumulators_.data()},
        kSplatBlock);
  }

  // Background, blended or winning colour, eye-dome lighting.
  QualityResolveParams resolve =
      makeQualityResolveParams(quality, f.settings->background, f.view.width, f.view.height);
  resolve.words = finalWords;
  resolve.colors = pool.colors.data();
  resolve.accumulators = quality.highQuality ? accumulators_.data() : nullptr;
  f.recorder->launch("shade", pixels, qualityResolveKernel,
                     QualityResolveKernelParams{resolve, f.out});
}

}  // namespace pcv::cuda
