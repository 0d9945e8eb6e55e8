#include "cpu_methods.hpp"

#include "cpu_atomics.hpp"

#include <algorithm>
#include <atomic>

#include "pcv/core/parallel.hpp"
#include "shared/framebuffer_word.hpp"

namespace pcv::cpu {
namespace {

uint64_t pixelCount(const Frame& frame) {
  return uint64_t(frame.view.width) * uint64_t(frame.view.height);
}

void clearWords(const Frame& frame) {
  frame.words->resize(pixelCount(frame));
  uint64_t* words = frame.words->data();
  parallelFor(pixelCount(frame),
              [&](uint64_t b, uint64_t e) { std::fill(words + b, words + e, kEmptyPixel); });
}

/// Colour of each pixel's winning point (payload = index into `colorOf`), or the background.
template <typename ColorOf>
void resolveIndexWords(const Frame& frame, ColorOf colorOf) {
  const uint64_t* words = frame.words->data();
  parallelFor(pixelCount(frame), [&](uint64_t b, uint64_t e) {
    for (uint64_t p = b; p < e; ++p) {
      frame.rgba[p] = words[p] == kEmptyPixel ? frame.background : colorOf(payloadOfWord(words[p]));
    }
  });
}

/// Calls body(i) for every drawn point slot i, in parallel.
template <typename Body>
void forDrawnPoints(const DrawList& list, const Body& body) {
  for (const PointRange& range : drawnPointRanges(list)) {
    parallelFor(range.count, [&](uint64_t b, uint64_t e) {
      for (uint64_t i = range.first + b; i < range.first + e; ++i) body(i);
    });
  }
}

}  // namespace

std::vector<PointRange> drawnPointRanges(const DrawList& list) {
  if (list.everything) return {{0, list.pointSlots}};
  return list.pointRanges;
}

void renderPacked(const Frame& frame, std::span<const Point> points) {
  WallStageClock clock(*frame.timings);
  clearWords(frame);
  clock.finish("clear");
  uint64_t* words = frame.words->data();
  forDrawnPoints(*frame.list, [&](uint64_t i) {
    PixelHit hit;
    if (!projectPoint(frame.view, points[i].x, points[i].y, points[i].z, hit)) return;
    atomicMinimumOf(words[uint64_t(hit.y) * frame.view.width + hit.x],
                    packDepthWord(hit.viewDepth, uint32_t(i)));
  });
  clock.finish("raster");
  resolveIndexWords(frame, [&](uint32_t index) { return points[index].rgba; });
  clock.finish("resolve");
}

void renderSeed(const Frame& frame, std::span<const Point> points) {
  WallStageClock clock(*frame.timings);
  clearWords(frame);
  clock.finish("clear");
  // The high half of each 64-bit word holds the NDC depth bits, the low half the winning index.
  uint64_t* words = frame.words->data();
  auto depthSlot = [&](uint64_t pixel) -> uint32_t& {
    return reinterpret_cast<uint32_t*>(words + pixel)[1];  // high word on little-endian
  };
  forDrawnPoints(*frame.list, [&](uint64_t i) {
    PixelHit hit;
    if (!projectPoint(frame.view, points[i].x, points[i].y, points[i].z, hit)) return;
    atomicMinimumOf(depthSlot(uint64_t(hit.y) * frame.view.width + hit.x),
                    floatBits(hit.ndcDepth01));
  });
  clock.finish("depth");
  forDrawnPoints(*frame.list, [&](uint64_t i) {
    PixelHit hit;
    if (!projectPoint(frame.view, points[i].x, points[i].y, points[i].z, hit)) return;
    const uint64_t pixel = uint64_t(hit.y) * frame.view.width + hit.x;
    if (std::atomic_ref<uint32_t>(depthSlot(pixel)).load(std::memory_order_relaxed) !=
        floatBits(hit.ndcDepth01)) {
      return;
    }
    atomicMinimumOf(reinterpret_cast<uint32_t*>(words + pixel)[0], uint32_t(i));
  });
  clock.finish("color");
  resolveIndexWords(frame, [&](uint32_t index) { return points[index].rgba; });
  clock.finish("resolve");
}

namespace {

// The raster loop of the compact method, cloned for CPUs with FMA (see PCV_CPU_FMA_CLONES).
PCV_CPU_FMA_CLONES void rasterCompactBatches(const Frame& frame, const HostPointPool& pool,
                                             uint64_t beginBatch, uint64_t endBatch) {
  uint64_t* words = frame.words->data();
  const DrawnBatches drawn{*frame.list};
  const FilterArrays filterArrays = pool.filterArrays();
  for (uint64_t b = beginBatch; b < endBatch; ++b) {
    const Batch& batch = pool.batches[drawn[b]];
    // As the GPU: only the parts of the filter that some of the batch's points fail are tested.
    const uint32_t filterTests = batchFilterTests(frame.filter, filterArrays, uint32_t(drawn[b]));
    if (filterTests & kFilterDropsAll) continue;
    const bool filterTested = filterTests != 0;
    const BatchProjection projection = makeBatchProjection(frame.view, batch);
    const BatchVisibility visibility = classifyBatch(projection);
    if (visibility == BatchVisibility::kOutside) continue;
    BatchClip clip{};
    const BatchClipClass clipClass = classifyBatchClip(frame.clip, batch, clip);
    if (clipClass == BatchClipClass::kNone) continue;
    // As the GPU: batches the clip region's faces cross, or whose points the filter tests, test
    // the view too (the same pixels).
    const bool clipTested = clipClass == BatchClipClass::kTested;
    for (uint32_t i = batch.first; i < batch.first + batch.count; ++i) {
      const uint32_t word = pool.positions[i];
      PixelHit hit;
      if (clipTested && !clipKeepsQuantized(clip, frame.clip.polygon, word)) continue;
      if (filterTested && !filterKeepsSlot(frame.filter, filterArrays, filterTests, i)) continue;
      const bool drawn = visibility == BatchVisibility::kInside && !clipTested && !filterTested
                             ? projectQuantized<false>(projection, word, hit)
                             : projectQuantized<true>(projection, word, hit);
      if (!drawn) continue;
      atomicMinimumOf(words[uint64_t(hit.y) * frame.view.width + hit.x],
                      packDepthWord(hit.viewDepth, i));
    }
  }
}

}  // namespace

void drawCompactWords(const Frame& frame, const HostPointPool& pool) {
  WallStageClock clock(*frame.timings);
  clearWords(frame);
  clock.finish("clear");
  parallelFor(
      DrawnBatches{*frame.list}.size(),
      [&](uint64_t beginBatch, uint64_t endBatch) {
        rasterCompactBatches(frame, pool, beginBatch, endBatch);
      },
      4);
  clock.finish("raster");
}

void renderCompact(const Frame& frame, const HostPointPool& pool) {
  drawCompactWords(frame, pool);
  WallStageClock clock(*frame.timings, WallStageClock::kKeep);
  resolveIndexWords(frame, [&](uint32_t index) { return pool.colors[index]; });
  clock.finish("resolve");
}

}  // namespace pcv::cpu
