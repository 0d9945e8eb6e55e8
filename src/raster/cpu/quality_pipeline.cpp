#include "quality_pipeline.hpp"

#include <algorithm>

#include "cpu_atomics.hpp"
#include "pcv/core/parallel.hpp"
#include "shared/framebuffer_word.hpp"
#include "shared/quality_resolve.hpp"
#include "shared/splat.hpp"

namespace pcv::cpu {
namespace {

/// Calls visit(pixel, depth, point index) for every footprint pixel of every point, batch by
/// batch across the threads; cloned for CPUs with FMA like the compact raster.
template <typename Visit>
PCV_CPU_FMA_CLONES void splatBatches(const Frame& frame, const HostPointPool& pool,
                                     const SplatFrame& splat, uint64_t beginBatch,
                                     uint64_t endBatch, const Visit& visit) {
  const DrawnBatches drawn{*frame.list};
  const FilterArrays filterArrays = pool.filterArrays();
  for (uint64_t b = beginBatch; b < endBatch; ++b) {
    const Batch& batch = pool.batches[drawn[b]];
    const BatchProjection projection = makeBatchProjection(frame.view, batch);
    if (batchOutsideView(projection, splat.marginPx)) continue;
    const uint32_t filterTests = batchFilterTests(frame.filter, filterArrays, uint32_t(drawn[b]));
    if (filterTests & kFilterDropsAll) continue;
    BatchClip clip{};
    const BatchClipClass clipClass = classifyBatchClip(frame.clip, batch, clip);
    if (clipClass == BatchClipClass::kNone) continue;
    const bool clipTested = clipClass == BatchClipClass::kTested;
    for (uint32_t i = batch.first; i < batch.first + batch.count; ++i) {
      if (clipTested && !clipKeepsQuantized(clip, frame.clip.polygon, pool.positions[i])) continue;
      if (filterTests != 0 && !filterKeepsSlot(frame.filter, filterArrays, filterTests, i))
        continue;
      splatQuantized(splat, projection, pool.positions[i],
                     [&](uint32_t pixel, float depth) { visit(pixel, depth, i); });
    }
  }
}

template <typename Visit>
void splatAll(const Frame& frame, const HostPointPool& pool, const SplatFrame& splat,
              const Visit& visit) {
  parallelFor(
      DrawnBatches{*frame.list}.size(),
      [&](uint64_t begin, uint64_t end) { splatBatches(frame, pool, splat, begin, end, visit); },
      4);
}

template <typename PerPixel>
void forEachPixel(const Frame& frame, const PerPixel& perPixel) {
  const int width = frame.view.width;
  parallelFor(uint64_t(frame.view.height), [&](uint64_t beginRow, uint64_t endRow) {
    for (uint64_t y = beginRow; y < endRow; ++y) {
      for (int x = 0; x < width; ++x) perPixel(x, int(y), y * width + x);
    }
  });
}

}  // namespace

const uint64_t* drawQualityWords(const Frame& frame, const HostPointPool& pool,
                                 const QualitySettings& quality, QualityScratch& scratch,
                                 WallStageClock& clock) {
  const uint64_t pixels = uint64_t(frame.view.width) * frame.view.height;
  frame.words->assign(pixels, kEmptyPixel);
  clock.finish("clear");

  // Closest point per pixel of each footprint: 64-bit minimum of depth|index.
  const SplatFrame splat = makeSplatFrame(quality, frame.view);
  uint64_t* words = frame.words->data();
  splatAll(frame, pool, splat, [&](uint32_t pixel, float depth, uint32_t index) {
    atomicMinimumOf(words[pixel], packDepthWord(depth, index));
  });
  clock.finish("splat");

  // Holes take the closest surrounding point (adaptive size).
  const uint64_t* finalWords = words;
  if (quality.fillRadiusPx > 0) {
    scratch.filled.resize(pixels);
    const FillParams fill{words, scratch.filled.data(), frame.view.width, frame.view.height,
                          quality.fillRadiusPx};
    forEachPixel(
        frame, [&](int x, int y, uint64_t pixel) { fill.filled[pixel] = filledWord(fill, x, y); });
    finalWords = scratch.filled.data();
    clock.finish("fill");
  }
  return finalWords;
}

void renderQuality(const Frame& frame, const HostPointPool& pool, const QualitySettings& quality,
                   QualityScratch& scratch) {
  WallStageClock clock(*frame.timings);
  const uint64_t* finalWords = drawQualityWords(frame, pool, quality, scratch, clock);
  const uint64_t pixels = uint64_t(frame.view.width) * frame.view.height;
  const SplatFrame splat = makeSplatFrame(quality, frame.view);

  // Colour sums and counts of the points near each pixel's closest depth.
  if (quality.highQuality) {
    scratch.accumulators.assign(pixels * kAccumulatorsPerPixel, 0u);
    const float depthScale = 1.0f + quality.hqDepthRange;
    uint32_t* sums = scratch.accumulators.data();
    splatAll(frame, pool, splat, [&](uint32_t pixel, float depth, uint32_t index) {
      if (!blendsInto(finalWords[pixel], depth, depthScale)) return;
      const uint32_t rgba = pool.colors[index];
      uint32_t* slot = sums + uint64_t(pixel) * kAccumulatorsPerPixel;
      atomicAddTo(slot[0], redOf(rgba));
      atomicAddTo(slot[1], greenOf(rgba));
      atomicAddTo(slot[2], blueOf(rgba));
      atomicAddTo(slot[3], 1u);
    });
    clock.finish("accumulate");
  }

  // Background, blended or winning colour, eye-dome lighting.
  QualityResolveParams resolve =
      makeQualityResolveParams(quality, frame.background, frame.view.width, frame.view.height);
  resolve.words = finalWords;
  resolve.colors = pool.colors.data();
  resolve.accumulators = quality.highQuality ? scratch.accumulators.data() : nullptr;
  forEachPixel(frame, [&](int x, int y, uint64_t pixel) {
    frame.rgba[pixel] = resolveQualityPixel(resolve, x, y);
  });
  clock.finish("shade");
}

}  // namespace pcv::cpu
