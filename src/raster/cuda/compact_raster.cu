#include "compact_raster.cuh"

#include <algorithm>

#include "pcv/cuda/dependent_launch.cuh"

namespace pcv::cuda {
namespace {

constexpr int kRasterBlock = 256;

/// Blocks per batch: two halves of a batch measured faster than one block (the tail of the last
/// wave is shorter) and than five (each block re-reads the batch's pixels into another L1).
constexpr uint32_t kSlices = 2;

/// The lists of tested batches, one per tested raster kernel. Batches whose pass bits hold the
/// filter's verdicts are on none: the raster stage draws them, a block per slice as for
/// untested batches, so that a frame of a filter that splits every batch has as many blocks in
/// flight as an unfiltered one (a grid of resident blocks walking a list of them waited on each
/// item's loads in turn: twice the unfiltered frame at 1 B points).
enum TestedList : uint32_t {
  kFilterList,  ///< filter tests only, run now (verdicts written): "filter raster"
  kClipList,    ///< a clip test, and filter tests as the batch needs: "clip raster"
  kTestedLists
};

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
  /// With a clip region or a filter (else null): kTestedLists lists of batchCount entries (list
  /// l from l * batchCount), the batches of each tested raster appended in any order...
  uint32_t* testedBatches;
  uint32_t* testedCounts;     ///< ... and how many in each list; zero before the stage
  uint32_t* passStamps;       ///< the pool's, per batch slot (null without filter data)
  uint32_t filterGeneration;  ///< FrameContext::filterGeneration
};

struct CompactRasterParams {
  const uint32_t* positions;  ///< quantized words, 16-byte aligned per batch
  const CulledBatch* culled;  ///< one per batch drawn
  const BatchClip* clips;     ///< one per batch drawn, read for batches with tests bit 0
  FilterFrame filter;         ///< the frame's point filter, tested as the batch's tests say
  FilterArrays filterArrays;  ///< the pool's filter data (device memory)
  ClipPolygon polygon;        ///< the frame's clip polygon, for batches whose clip tests it
  const uint32_t* drawn;      ///< the frame's batch slots, or null for slots [0, batchCount)
  uint32_t* passBits;         ///< the pool's, kPassWordsPerBatch words per batch slot, or null
  uint32_t width;             ///< pixels per framebuffer row
  uint32_t pixelBias;         ///< -kFloorBias * (width + 1), mod 2^32: see drawQuantized
  unsigned long long* words;  ///< framebuffer, one word per pixel, kEmptyPixel where clear
};

/// A tested raster: the batches of one list that the cull stage wrote.
struct TestedRasterParams {
  CompactRasterParams raster;
  const uint32_t* batches;  ///< indices into raster.culled
  const uint32_t* count;    ///< entries of `batches` (device memory: the cull stage counts them)
};

/// Appends batch `b` (when `append`) to list `list` of the tested batches: one shared-memory
/// atomic per batch and one global atomic per list and block, so a frame whose every batch is
/// tested does not queue 100 k atomics on a few words. Every thread of the block calls it.
__device__ PCV_FORCE_INLINE void appendTested(const CullParams& p, bool append, uint32_t list,
                                              uint32_t b) {
  __shared__ uint32_t blockCount[kTestedLists], blockBase[kTestedLists];
  if (threadIdx.x < kTestedLists) blockCount[threadIdx.x] = 0;
  __syncthreads();
  const uint32_t rank = append ? atomicAdd(&blockCount[list], 1u) : 0u;
  __syncthreads();
  if (threadIdx.x < kTestedLists && blockCount[threadIdx.x] > 0)
    blockBase[threadIdx.x] = atomicAdd(&p.testedCounts[threadIdx.x], blockCount[threadIdx.x]);
  __syncthreads();
  if (append) p.testedBatches[list * p.batchCount + blockBase[list] + rank] = b;
}

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
  bool tested = false;
  uint32_t list = 0;
  if (active && corner == 0) {
    BatchClip clip{};
    const BatchClipClass clipClass = classifyBatchClip(p.clip, batch, clip);
    const bool clipTest = clipClass == BatchClipClass::kTested;
    if (clipTest) p.clips[b] = clip;
    const uint32_t filterTests = batchFilterTests(p.filter, p.filterArrays, slot);
    // Free slots hold no points, and a batch the clip region cuts away or the filter leaves
    // nothing of has nothing to draw; the view's cull holds whatever the filter says.
    const BatchVisibility visibility =
        count == 0 || clipClass == BatchClipClass::kNone || (filterTests & kFilterDropsAll)
            ? BatchVisibility::kOutside
            : combineCorners(outsideAll, insideAll != 0);
    uint32_t tests = (clipTest ? kClipTest : 0u) |
                     (filterTests & (kFilterWordTest | kFilterValueTest)) << kFilterTestShift;
    tested = tests != 0 && visibility != BatchVisibility::kOutside;
    // A batch of the filter raster reads the verdicts its pass bits hold for this filter, or
    // has them written by this frame (which completes before the next frame's cull reads the
    // stamp).
    if (tested && !clipTest && p.passStamps) {
      if (p.passStamps[slot] == p.filterGeneration) {
        tests |= kPassBitsRead;
      } else {
        tests |= kPassBitsWrite;
        p.passStamps[slot] = p.filterGeneration;
      }
    }
    p.culled[b] = CulledBatch{projection, visibility, first, count, tests};
    list = clipTest ? kClipList : kFilterList;
    tested = tested && !(tests & kPassBitsRead);  // drawn by the raster stage
  }
  if (p.testedCounts) appendTested(p, tested, list, b);
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

/// Reads 8 bytes (the filter words of four points) as readStreaming does 16.
__device__ PCV_FORCE_INLINE uint2 readStreaming(const uint2* address) {
#if __CUDA_ARCH__ >= 800
  uint64_t policy;
  asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
  uint2 v;
  asm("ld.global.nc.L1::no_allocate.L2::cache_hint.v2.u32 {%0, %1}, [%2], %3;"
      : "=r"(v.x), "=r"(v.y)
      : "l"(address), "l"(policy));
  return v;
#else
  return __ldcs(address);
#endif
}

/// Which of the four points from slot `index` (a multiple of 4) pass the batch's filter tests
/// (BatchFilterTests): bit j for point index + j. Reads only the arrays the tests need, 8 bytes
/// of words and 16 of values per four points, in whole loads; `masks` is the frame's class and
/// return masks in shared memory.
__device__ PCV_FORCE_INLINE uint32_t quadFilterPasses(const CompactRasterParams& p,
                                                      const uint32_t* masks, uint32_t filterTests,
                                                      uint32_t index) {
  uint32_t passes = 0xfu;
  if (filterTests & kFilterWordTest) {
    const uint2 pair = readStreaming(reinterpret_cast<const uint2*>(p.filterArrays.words + index));
    // Little-endian: the lower half of each 32-bit word is the earlier point's.
    const uint32_t words[4] = {pair.x & 0xffffu, pair.x >> 16, pair.y & 0xffffu, pair.y >> 16};
#pragma unroll
    for (int j = 0; j < 4; ++j)
      passes &= filterWordKept(masks, masks + 8, words[j]) ? 0xfu : ~(1u << j);
  }
  if (filterTests & kFilterValueTest) {
    const uint4 bits = readStreaming(reinterpret_cast<const uint4*>(p.filterArrays.values + index));
    const uint32_t values[4] = {bits.x, bits.y, bits.z, bits.w};
#pragma unroll
    for (int j = 0; j < 4; ++j)
      passes &= rangeValueKept(p.filter, __uint_as_float(values[j])) ? 0xfu : ~(1u << j);
  }
  return passes;
}

/// Whether the point at slot `i` passes the batch's filter tests (quadFilterPasses, one point).
__device__ PCV_FORCE_INLINE bool slotFilterPasses(const CompactRasterParams& p,
                                                  const uint32_t* masks, uint32_t filterTests,
                                                  uint32_t i) {
  if ((filterTests & kFilterWordTest) &&
      !filterWordKept(masks, masks + 8, __ldg(&p.filterArrays.words[i])))
    return false;
  return !(filterTests & kFilterValueTest) ||
         rangeValueKept(p.filter, __ldg(&p.filterArrays.values[i]));
}

/// The pixel of a projected point: its depth against the framebuffer's (early-z: most points of
/// a dense cloud are hidden; a plain read is far cheaper than an atomic, and a stale value only
/// costs an atomic that was not needed), then the atomic where it is nearer, which keeps the
/// lower index on equal depths. With `kept` false the depth is read and nothing written.
__device__ PCV_FORCE_INLINE void drawProjected(const CompactRasterParams& p,
                                               const ScreenPoint& point, uint32_t index,
                                               bool kept = true) {
  // The pixel index row * width + column, with the floors' biases removed once by pixelBias (the
  // same pixel as projectQuantized's, in two instructions fewer).
  const uint32_t column = floorToUintBiased(point.x), row = floorToUintBiased(point.y);
  const uint32_t pixel = row * p.width + column + p.pixelBias;
  const uint32_t depth = floatBits(point.w);
  unsigned long long* slot = &p.words[pixel];
  if (depth <= readDepthKeptInL2(slot) && kept) atomicMin(slot, packDepthWord(point.w, index));
}

/// Draws one point. With kMayClip the point is first tested against the batch's clip region
/// when its tests say so.
template <bool kTested, bool kMayClip>
__device__ PCV_FORCE_INLINE void drawQuantized(const CompactRasterParams& p,
                                               const BatchProjection& projection, uint32_t word,
                                               uint32_t index, const BatchClip* clip,
                                               uint32_t tests) {
  if (kMayClip && (tests & kClipTest) && !clipKeepsQuantized(*clip, p.polygon, word)) return;
  ScreenPoint point;
  if (projectQuantizedToScreen<kTested>(projection, word, point)) drawProjected(p, point, index);
}

/// Draws points [begin, end) of the positions, four per 16-byte load; begin is a multiple of 4.
/// With kMayClip each point may be tested against `clip` (in shared memory: no registers held),
/// with kMayFilter against the filter, as `tests` (CulledBatch::tests) says; without them
/// `clip` and `masks` are not read.
template <bool kTested, bool kMayClip, bool kMayFilter>
__device__ PCV_FORCE_INLINE void drawRange(const CompactRasterParams& p,
                                           const BatchProjection& projection, uint32_t begin,
                                           uint32_t end, const BatchClip* clip, uint32_t tests,
                                           const uint32_t* masks) {
  const uint4* quads = reinterpret_cast<const uint4*>(p.positions + begin);
  const uint32_t quadCount = (end - begin) / 4;
  const uint32_t filterTests =
      kMayFilter ? (tests >> kFilterTestShift) & (kFilterWordTest | kFilterValueTest) : 0u;
  for (uint32_t q = threadIdx.x; q < quadCount; q += kRasterBlock) {
    const uint4 w = readStreaming(&quads[q]);
    const uint32_t index = begin + 4 * q;
    const uint32_t passes = kMayFilter ? quadFilterPasses(p, masks, filterTests, index) : 0xfu;
    if (passes & 1u) drawQuantized<kTested, kMayClip>(p, projection, w.x, index, clip, tests);
    if (passes & 2u) drawQuantized<kTested, kMayClip>(p, projection, w.y, index + 1, clip, tests);
    if (passes & 4u) drawQuantized<kTested, kMayClip>(p, projection, w.z, index + 2, clip, tests);
    if (passes & 8u) drawQuantized<kTested, kMayClip>(p, projection, w.w, index + 3, clip, tests);
  }
  for (uint32_t i = begin + quadCount * 4 + threadIdx.x; i < end; i += kRasterBlock) {
    if (kMayFilter && !slotFilterPasses(p, masks, filterTests, i)) continue;
    drawQuantized<kTested, kMayClip>(p, projection, __ldg(&p.positions[i]), i, clip, tests);
  }
}

/// drawQuantized for a point of a four whose filter verdict is `kept`: projected, and its pixel's
/// depth read, whether it passes or not, exactly as an unfiltered frame draws every point; the
/// verdict only withholds the atomic. Branching on the verdict instead made each of the four
/// points' early-z reads a branch of its own that the warp waits on in turn (per-point filters
/// cost 10-11 % of the frame at 1 B points); unbranched, the four reads overlap as unfiltered.
template <bool kTested>
__device__ PCV_FORCE_INLINE void drawQuantizedIfKept(const CompactRasterParams& p,
                                                     const BatchProjection& projection,
                                                     uint32_t word, uint32_t index, bool kept) {
  ScreenPoint point;
  if (projectQuantizedToScreen<kTested>(projection, word, point)) {
    drawProjected(p, point, index, kept);
  }
}

/// Draws the four points of `w` from slot `index` whose bits in `passes` (bit j: index + j) are
/// set, with the view's tests when kTested.
template <bool kTested = true>
__device__ PCV_FORCE_INLINE void drawQuad(const CompactRasterParams& p,
                                          const BatchProjection& projection, const uint4& w,
                                          uint32_t index, uint32_t passes) {
  drawQuantizedIfKept<kTested>(p, projection, w.x, index, passes & 1u);
  drawQuantizedIfKept<kTested>(p, projection, w.y, index + 1, passes & 2u);
  drawQuantizedIfKept<kTested>(p, projection, w.z, index + 2, passes & 4u);
  drawQuantizedIfKept<kTested>(p, projection, w.w, index + 3, passes & 8u);
}

/// The points of a batch's last four when the batch ends inside it (a 16-byte load would read
/// past the batch), one load each, those whose bits in `passes` are set: bits of slots past the
/// batch are never set.
template <bool kTested = true>
__device__ PCV_FORCE_INLINE void drawPartialQuad(const CompactRasterParams& p,
                                                 const BatchProjection& projection, uint32_t index,
                                                 uint32_t passes) {
  for (; passes != 0; passes &= passes - 1) {  // one drawQuantized inlined, not three
    const uint32_t i = index + __ffs(passes) - 1;
    drawQuantized<kTested, false>(p, projection, __ldg(&p.positions[i]), i, nullptr, 0u);
  }
}

/// Points [begin, end) of a batch whose pass bits hold the filter's verdicts; `bits` the
/// slice's words, bit i for point begin + i. Four points cost 4 bits of a word that an 8-lane
/// group of the warp shares (one broadcast load). The positions are loaded beside their word,
/// not after it: the two loads' latencies overlap, as an unfiltered frame's one load, and fours
/// none of whose points pass are loaded but not drawn. Nothing of the filter itself is read: the
/// bits cover every point, the batch's last partial four too, so this variant of the raster
/// kernel holds no filter state and spills nothing. Without kTested the points skip the view's
/// range tests (a batch inside the view).
template <bool kTested>
__device__ PCV_FORCE_INLINE void drawPassBitsRange(const CompactRasterParams& p,
                                                   const BatchProjection& projection,
                                                   uint32_t begin, uint32_t end,
                                                   const uint32_t* bits) {
  const uint4* quads = reinterpret_cast<const uint4*>(p.positions + begin);
  const uint32_t wholeQuads = (end - begin) / 4, quadCount = (end - begin + 3) / 4;
  for (uint32_t q = threadIdx.x; q < quadCount; q += kRasterBlock) {
    const uint32_t word = __ldg(&bits[q / 8]);
    const bool whole = q < wholeQuads;
    const uint4 w = whole ? readStreaming(&quads[q]) : uint4{};
    const uint32_t passes = (word >> (4 * (q % 8))) & 0xfu;
    if (passes == 0) continue;
    if (whole) {
      drawQuad<kTested>(p, projection, w, begin + 4 * q, passes);
    } else {
      drawPartialQuad<kTested>(p, projection, begin + 4 * q, passes);
    }
  }
}

/// Points [begin, end) of a batch the filter tests, reading only the words or values its tests
/// need; with kPassBitsWrite the verdicts go into the batch's pass bits (`bits` as
/// drawPassBitsRange reads them): each 8-lane group (32 consecutive points, from a multiple of 32
/// of the batch) stores its word whole, so no atomics are needed; bits past the batch's last
/// point are written as 0 and never read.
__device__ PCV_FORCE_INLINE void drawFilterTestedRange(const CompactRasterParams& p,
                                                       const BatchProjection& projection,
                                                       uint32_t begin, uint32_t end, uint32_t tests,
                                                       const uint32_t* masks, uint32_t* bits) {
  const uint4* quads = reinterpret_cast<const uint4*>(p.positions + begin);
  const uint32_t wholeQuads = (end - begin) / 4, quadCount = (end - begin + 3) / 4;
  const uint32_t filterTests = (tests >> kFilterTestShift) & (kFilterWordTest | kFilterValueTest);
  const uint32_t lane = threadIdx.x & 31;
  // Whole rounds of the block, so every lane of a warp takes part in the shuffles.
  for (uint32_t round = 0; round < quadCount; round += kRasterBlock) {
    const uint32_t q = round + threadIdx.x;
    const uint32_t index = begin + 4 * q;
    uint4 w{};
    uint32_t passes = 0;
    if (q < wholeQuads) {
      w = readStreaming(&quads[q]);
      passes = quadFilterPasses(p, masks, filterTests, index);
    } else if (q < quadCount) {
      for (uint32_t i = index; i < end; ++i)
        passes |= slotFilterPasses(p, masks, filterTests, i) ? 1u << (i - index) : 0u;
    }
    if (tests & kPassBitsWrite) {
      uint32_t word = passes << (4 * (lane & 7));
      word |= __shfl_xor_sync(0xffffffffu, word, 1);
      word |= __shfl_xor_sync(0xffffffffu, word, 2);
      word |= __shfl_xor_sync(0xffffffffu, word, 4);
      const uint32_t groupQuad = q - (lane & 7);  // a multiple of 8: 32 points, one word
      if ((lane & 7) == 0 && groupQuad < quadCount) bits[groupQuad / 8] = word;
    }
    if (q < wholeQuads) {
      drawQuad(p, projection, w, index, passes);
    } else if (q < quadCount) {
      drawPartialQuad(p, projection, index, passes);
    }
  }
}

/// A slice whose pass bits hold the filter's verdicts (drawPassBitsRange).
__device__ PCV_FORCE_INLINE void drawPassBitsSlice(const CompactRasterParams& p,
                                                   const CulledBatch& culled, uint32_t b,
                                                   uint32_t begin, uint32_t end) {
  static_assert((kBatchSize / kSlices) % 32 == 0, "slices must start on whole words of pass bits");
  const uint32_t* bits = p.passBits + uint64_t(drawnBatchSlot(p.drawn, b)) * kPassWordsPerBatch +
                         (begin - culled.first) / 32;
  if (culled.visibility == BatchVisibility::kInside) {
    drawPassBitsRange<false>(p, culled.projection, begin, end, bits);
  } else {
    drawPassBitsRange<true>(p, culled.projection, begin, end, bits);
  }
}

/// Block blockIdx.x draws slice (blockIdx.x % kSlices) of batch (blockIdx.x / kSlices) when the
/// batch has no per-point tests (the batches of a frame without clip region or filter, and those
/// a filter or clip region keeps whole) or, with kMayPassBits (frames with a filter), its pass
/// bits hold the filter's verdicts. Without it the kernel holds no state for them: an unfiltered
/// frame's kernel spills nothing at full occupancy.
template <bool kMayPassBits>
__device__ void rasterCompact(const CompactRasterParams& p) {
  static_assert(kBatchSize % (4 * kSlices) == 0, "slices must hold whole 16-byte loads");
  beginDependentKernel();
  const uint32_t b = blockIdx.x / kSlices;
  const CulledBatch culled = p.culled[b];
  const uint32_t first = culled.first, count = culled.count;
  const bool passBits = kMayPassBits && (culled.tests & kPassBitsRead) != 0;
  if (culled.visibility == BatchVisibility::kOutside || (culled.tests != 0 && !passBits)) return;
  constexpr uint32_t kSliceSize = kBatchSize / kSlices;
  const uint32_t begin = first + (blockIdx.x % kSlices) * kSliceSize;
  const uint32_t end = min(begin + kSliceSize, first + count);
  if (begin >= end) return;
  if (passBits) {
    drawPassBitsSlice(p, culled, b, begin, end);
  } else if (culled.visibility == BatchVisibility::kInside) {
    // Batches wholly inside the view skip the per-point range tests: all their points pass them.
    drawRange<false, false, false>(p, culled.projection, begin, end, nullptr, 0u, nullptr);
  } else {
    drawRange<true, false, false>(p, culled.projection, begin, end, nullptr, 0u, nullptr);
  }
}

/// The slices of the listed batches, by a grid of as many blocks as the GPU holds at once
/// (item i is slice i % kSlices of list entry i / kSlices): a frame pays for the batches it tests,
/// not for a block per batch of the scene. kList says which list and how its points are tested
/// (TestedList). The view's range tests run for every point (one variant fewer; they only pass
/// where the view keeps the points anyway).
template <TestedList kList>
__device__ void rasterTested(const TestedRasterParams& t) {
  const CompactRasterParams& p = t.raster;
  __shared__ BatchClip clip;
  __shared__ uint32_t masks[16];  // the filter's class and return masks: lookups per point
  constexpr uint32_t kSliceSize = kBatchSize / kSlices;
  beginDependentKernel();
  if (threadIdx.x < 8) masks[threadIdx.x] = p.filter.classMask[threadIdx.x];
  if (threadIdx.x >= 8 && threadIdx.x < 16)
    masks[threadIdx.x] = p.filter.returnMask[threadIdx.x - 8];
  const uint32_t items = *t.count * kSlices;
  for (uint32_t item = blockIdx.x; item < items; item += gridDim.x) {
    const uint32_t b = t.batches[item / kSlices];
    const CulledBatch culled = p.culled[b];
    const uint32_t begin = culled.first + (item % kSlices) * kSliceSize;
    const uint32_t end = min(begin + kSliceSize, culled.first + culled.count);
    // The word of point `begin` among the batch's pass bits: slices start at multiples of 32.
    uint32_t* bits = p.passBits
                         ? p.passBits + uint64_t(drawnBatchSlot(p.drawn, b)) * kPassWordsPerBatch +
                               (begin - culled.first) / 32
                         : nullptr;
    // Every thread takes the same path: the slice is the block's. The first barrier keeps the
    // previous slice's readers of `clip` before this write (and publishes the masks).
    __syncthreads();
    if (kList == kClipList && threadIdx.x == 0 && (culled.tests & kClipTest)) clip = p.clips[b];
    __syncthreads();
    if (begin >= end) continue;
    if (kList == kClipList) {
      drawRange<true, true, true>(p, culled.projection, begin, end, &clip, culled.tests, masks);
    } else {
      drawFilterTestedRange(p, culled.projection, begin, end, culled.tests, masks, bits);
    }
  }
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
__global__ void __launch_bounds__(kRasterBlock, kRasterBlocksPerSm)
    rasterCompactPassBitsKernel(CompactRasterParams p) {
  rasterCompact<true>(p);
}
// The filter tests and the writing of the verdicts, like the clip test, spill under the
// full-occupancy bound; five eighths of the blocks (48 registers) hold them. These batches are
// drawn so once per filter; its later frames read the pass bits.
__global__ void __launch_bounds__(kRasterBlock, kRasterBlocksPerSm * 5 / 8)
    rasterFilteredKernel(TestedRasterParams p) {
  rasterTested<kFilterList>(p);
}
// __grid_constant__: the clip polygon's edges are read by index straight from the parameters,
// never copied to each thread's local memory.
__global__ void __launch_bounds__(kRasterBlock, kRasterBlocksPerSm * 5 / 8)
    rasterClippedKernel(const __grid_constant__ TestedRasterParams p) {
  rasterTested<kClipList>(p);
}

/// Blocks of `kernel` (kRasterBlock threads) the current device holds at once: the grid of a
/// tested raster.
int residentBlocks(void (*kernel)(TestedRasterParams)) {
  int device = 0, multiprocessors = 0, perMultiprocessor = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
  CUDA_CHECK(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perMultiprocessor, kernel, kRasterBlock, 0));
  return std::max(1, multiprocessors * perMultiprocessor);
}

}  // namespace

void CompactRasterStages::draw(const FrameContext& f, unsigned long long* words) {
  const DevicePointPool& pool = *f.pool;
  const uint32_t batchCount = f.batchCount;
  const auto width = uint32_t(f.view.width);
  culled_.reserve(batchCount);
  if (f.clip.active) clips_.reserve(batchCount);
  // Batches with per-point tests exist only with a clip region or a filter; then they are listed.
  const bool listsTested = (f.clip.active || f.filter.active) && batchCount > 0;
  if (listsTested) {
    testedBatches_.reserve(kTestedLists * uint64_t(batchCount));
    testedCounts_.reserve(kTestedLists);
    CUDA_CHECK(cudaMemsetAsync(testedCounts_.data(), 0, kTestedLists * sizeof(uint32_t),
                               f.recorder->stream()));
  }
  // Each batch's projection and visibility, what the clip region and the filter leave of it, and
  // the list of the batches that need per-point tests.
  f.recorder->launchDependent(
      "cull", uint64_t(batchCount) * 8, cullBatchesKernel,
      CullParams{pool.batches.data(), f.drawnBatches, batchCount, f.view, f.clip, f.filter,
                 pool.filterArrays(), culled_.data(), clips_.data(),
                 listsTested ? testedBatches_.data() : nullptr,
                 listsTested ? testedCounts_.data() : nullptr,
                 pool.passStamps.size() > 0 ? pool.passStamps.data() : nullptr, f.filterGeneration},
      128);
  // kSlices blocks per batch; those of batches outside the view or with tests return at once.
  const CompactRasterParams raster{pool.positions.data(),
                                   culled_.data(),
                                   clips_.data(),
                                   f.filter,
                                   pool.filterArrays(),
                                   f.clip.polygon,
                                   f.drawnBatches,
                                   pool.passBits.size() > 0 ? pool.passBits.data() : nullptr,
                                   width,
                                   0u - kFloorBias * (width + 1),
                                   words};
  f.recorder->launchDependent(
      "raster", uint64_t(batchCount) * kSlices * kRasterBlock,
      f.filter.active && raster.passBits ? rasterCompactPassBitsKernel : rasterCompactKernel, raster,
      kRasterBlock);
  if (!listsTested) return;
  auto launchTested = [&](const char* stage, void (*kernel)(TestedRasterParams), int& blocks,
                          TestedList list) {
    if (blocks == 0) blocks = residentBlocks(kernel);
    f.recorder->launchDependent(
        stage, uint64_t(blocks) * kRasterBlock, kernel,
        TestedRasterParams{raster, testedBatches_.data() + uint64_t(list) * batchCount,
                           testedCounts_.data() + list},
        kRasterBlock);
  };
  // The batches the filter tests point by point (and no clip region crosses) and whose pass
  // bits hold no verdicts of this filter yet: tested now, the verdicts kept.
  if (f.filter.active) {
    launchTested("filter raster", rasterFilteredKernel, filterRasterBlocks_, kFilterList);
  }
  // The batches the clip region's faces cross, with their filter tests.
  if (f.clip.active) launchTested("clip raster", rasterClippedKernel, clipRasterBlocks_, kClipList);
}

}  // namespace pcv::cuda
