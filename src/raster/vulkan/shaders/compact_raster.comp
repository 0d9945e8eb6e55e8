#version 460
#extension GL_GOOGLE_include_directive : require
// The compact method's raster: one workgroup per drawn batch, after the cull stage
// (compact_cull.comp) has judged the batches against the view, the clip region and the filter's
// summary. For a batch in view the first invocation reads the batch and makes its projection,
// clip test and filter tests in shared memory; every invocation then draws a stride of its
// points: clip and filter tests as the batch needs them, the projection, a plain read of the
// pixel's depth (early-z: most points of a dense cloud are hidden, and a read is far cheaper than
// an atomic), and the 64-bit minimum of depth | slot, which keeps the closest point and, on equal
// depths, the lowest slot.
// Built twice: as it is, and with PCV_PLAIN_POINTS for frames with no clip region and no filter.
#include "clip_region.glsl"
#include "point_filter.glsl"

layout(local_size_x = 256) in;

shared BatchProjection sProjection;
shared BatchClip sClip;
shared uint sFirst, sCount, sFilterTests, sClipTested;

layout(buffer_reference, buffer_reference_align = 16, scalar) readonly buffer QuadArray {
  uvec4 at[];
};

// Where a batch's positions lie: in one slice of the pool, or across into the next.
struct BatchSlices {
  bool inTwo;  // both slices' addresses known; else each point's from the frame
  uint shift, first, mask;
  uint64_t firstBase, lastBase;
};

// The four positions from slot i on (a multiple of four) in one 16-byte load.
uvec4 quadAt(uint i, BatchSlices s) {
  if (s.inTwo) {
    const uint64_t base = (i >> s.shift) == s.first ? s.firstBase : s.lastBase;
    return QuadArray(base + 4ul * uint64_t(i & s.mask)).at[0];
  }
  return uvec4(positionAt(i), positionAt(i + 1u), positionAt(i + 2u), positionAt(i + 3u));
}

// One point: the clip and filter tests as the batch needs them, the projection, the early-z read
// of the pixel's depth and the 64-bit minimum of depth | slot.
void drawPoint(BatchProjection projection, uint word, uint i, bool clipTested, uint filterTests,
               bool tested, uint width, WordArray words, UintArray depthHalves) {
  if (clipTested && !clipKeepsQuantized(sClip, word)) return;
  if (filterTests != 0u && !filterKeepsSlot(filterTests, i)) return;
  vec3 screen;
  if (!projectQuantizedToScreen(projection, word, tested, false, 0.0, screen)) return;
  const uint pixel = uint(screen.y) * width + uint(screen.x);
  const uint depth = floatBitsToUint(screen.z);
  if (depth > depthHalves.at[2u * pixel + 1u]) return;  // the high half: little-endian
  atomicMin(words.at[pixel], packDepthWord(screen.z, i));
}

// The batch's points [first, end), each invocation a stride of them. Called with `tested` a
// literal, so that the loop is compiled twice: batches inside the view draw without the view's
// range tests instead of asking a flag at every point (6-11 % of the raster at 100 M points on
// an H100).
void drawPoints(const bool tested, BatchProjection projection, uint first, uint end,
                bool clipTested, uint filterTests, uint width, WordArray words,
                UintArray depthHalves, BatchSlices slices) {
  // Four points per invocation and iteration, from one 16-byte load (batches start at multiples
  // of four slots, slices are whole multiples of four): four independent early-z reads in
  // flight instead of one, as the CUDA raster reads them. The next four are loaded before these
  // are drawn, so a load is in flight while the previous points are projected (8 % faster on an
  // H100 at 100 M points than loading each four where they are drawn). The last partial four
  // one by one.
  const uint quadEnd = first + ((end - first) & ~3u);
  uint at = first + 4u * gl_LocalInvocationIndex;
  uvec4 next = at < quadEnd ? quadAt(at, slices) : uvec4(kInvalidQuantized);
  for (; at < quadEnd; at += 4u * 256u) {
    const uvec4 quad = next;
    if (at + 4u * 256u < quadEnd) next = quadAt(at + 4u * 256u, slices);
    drawPoint(projection, quad.x, at, clipTested, filterTests, tested, width, words, depthHalves);
    drawPoint(projection, quad.y, at + 1u, clipTested, filterTests, tested, width, words,
              depthHalves);
    drawPoint(projection, quad.z, at + 2u, clipTested, filterTests, tested, width, words,
              depthHalves);
    drawPoint(projection, quad.w, at + 3u, clipTested, filterTests, tested, width, words,
              depthHalves);
  }
  for (uint i = quadEnd + gl_LocalInvocationIndex; i < end; i += 256u) {
    drawPoint(projection, positionAt(i), i, clipTested, filterTests, tested, width, words,
              depthHalves);
  }
}

void main() {
  const uint b = linearGroupIndex();
  if (b >= pc.frame.batchCount) return;
  // The cull stage's verdict (compact_cull.comp): a batch out of view ends here, after one read.
  const uint visibility = pc.frame.visibility.at[b];
  if (visibility == kBatchOutside) return;
  if (gl_LocalInvocationIndex == 0u) {
    const uint slot = drawnBatchSlot(b);
    const Batch batch = pc.frame.batches.at[slot];
    sFirst = batch.first;
    sCount = batch.count;
    sProjection = makeBatchProjection(pc.frame.view, batch);
#ifndef PCV_PLAIN_POINTS
    sFilterTests = batchFilterTests(slot);
    BatchClip clip;
    sClipTested = classifyBatchClip(batch, clip) == kClipTested ? 1u : 0u;
    sClip = clip;
#endif
  }
  barrier();
  const BatchProjection projection = sProjection;
#ifdef PCV_PLAIN_POINTS
  // A frame without a clip region or a filter: their tests compiled out, so the loop keeps
  // only what it needs in registers (more workgroups resident to hide the reads).
  const bool clipTested = false;
  const uint filterTests = 0u;
#else
  const bool clipTested = sClipTested != 0u;
  const uint filterTests = sFilterTests;
#endif
  const bool tested = visibility != kBatchInside || clipTested || filterTests != 0u;
  // Everything the loop reads of the frame's parameters is read here, once: they live in a
  // buffer the compiler cannot prove unchanged by the loop's atomics, so inside the loop each
  // use would be a load from memory before the point's own loads.
  const uint width = uint(pc.frame.view.width);
  WordArray words = pc.frame.words;
  UintArray depthHalves = UintArray(pc.frame.words);
  const uint end = sFirst + sCount;
  // A batch lies in one slice of the positions or crosses into the next (a device's slices hold
  // far more points than a batch): the two slices' addresses, the point's chosen by its slice.
  // Slices smaller than a batch (tests make them) take each point's slice from the frame.
  const uint shift = pc.frame.sliceShift;
  BatchSlices slices;
  slices.shift = shift;
  slices.first = sFirst >> shift;
  const uint lastSlice = (end - 1u) >> shift;
  slices.firstBase = uint64_t(pc.frame.positions[slices.first]);
  slices.lastBase = uint64_t(pc.frame.positions[lastSlice]);
  slices.mask = (1u << shift) - 1u;
  slices.inTwo = lastSlice - slices.first <= 1u;
  if (tested) {
    drawPoints(true, projection, sFirst, end, clipTested, filterTests, width, words, depthHalves,
               slices);
  } else {
    drawPoints(false, projection, sFirst, end, clipTested, filterTests, width, words, depthHalves,
               slices);
  }
}
