#version 460
#extension GL_GOOGLE_include_directive : require
// The compact method's raster: one workgroup per drawn batch. The first invocation culls the
// batch (its box against the view, the clip region and the filter's summary) into shared
// memory; every invocation then draws a stride of the batch's points: clip and filter tests as
// the batch needs them, the projection, a plain read of the pixel's depth (early-z: most points
// of a dense cloud are hidden, and a read is far cheaper than an atomic), and the 64-bit minimum
// of depth | slot, which keeps the closest point and, on equal depths, the lowest slot.
// Built twice: as it is, and with PCV_PLAIN_POINTS for frames with no clip region and no filter.
#include "clip_region.glsl"
#include "point_filter.glsl"

layout(local_size_x = 256) in;

shared BatchProjection sProjection;
shared BatchClip sClip;
shared uint sVisibility, sFirst, sCount, sFilterTests, sClipTested;

layout(buffer_reference, buffer_reference_align = 16, scalar) readonly buffer QuadArray {
  uvec4 at[];
};

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

void main() {
  const uint b = linearGroupIndex();
  if (b >= pc.frame.batchCount) return;
  if (gl_LocalInvocationIndex == 0u) {
    const uint slot = drawnBatchSlot(b);
    const Batch batch = pc.frame.batches.at[slot];
    sFirst = batch.first;
    sCount = batch.count;
    sVisibility = kBatchOutside;
    const uint filterTests = batchFilterTests(slot);
    if (batch.count != 0u && (filterTests & kFilterDropsAll) == 0u) {
      sProjection = makeBatchProjection(pc.frame.view, batch);
      BatchClip clip;
      const uint clipClass = classifyBatchClip(batch, clip);
      if (clipClass != kClipNone) sVisibility = classifyBatch(sProjection);
      sClip = clip;
      sClipTested = clipClass == kClipTested ? 1u : 0u;
    }
    sFilterTests = filterTests;
  }
  barrier();
  if (sVisibility == kBatchOutside) return;
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
  const bool tested = sVisibility != kBatchInside || clipTested || filterTests != 0u;
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
  const uint firstSlice = sFirst >> shift;
  const uint lastSlice = (end - 1u) >> shift;
  const uint64_t firstBase = uint64_t(pc.frame.positions[firstSlice]);
  const uint64_t lastBase = uint64_t(pc.frame.positions[lastSlice]);
  const uint inSliceMask = (1u << shift) - 1u;
  const bool inTwoSlices = lastSlice - firstSlice <= 1u;
  // Four points per invocation and iteration, from one 16-byte load (batches start at multiples
  // of four slots, slices are whole multiples of four): four independent early-z reads in
  // flight instead of one, as the CUDA raster reads them. The last partial four one by one.
  const uint quadEnd = sFirst + (sCount & ~3u);
  for (uint i = sFirst + 4u * gl_LocalInvocationIndex; i < quadEnd; i += 4u * 256u) {
    uvec4 quad;
    if (inTwoSlices) {
      const uint64_t base = (i >> shift) == firstSlice ? firstBase : lastBase;
      quad = QuadArray(base + 4ul * uint64_t(i & inSliceMask)).at[0];
    } else {
      quad = uvec4(positionAt(i), positionAt(i + 1u), positionAt(i + 2u), positionAt(i + 3u));
    }
    drawPoint(projection, quad.x, i, clipTested, filterTests, tested, width, words, depthHalves);
    drawPoint(projection, quad.y, i + 1u, clipTested, filterTests, tested, width, words,
              depthHalves);
    drawPoint(projection, quad.z, i + 2u, clipTested, filterTests, tested, width, words,
              depthHalves);
    drawPoint(projection, quad.w, i + 3u, clipTested, filterTests, tested, width, words,
              depthHalves);
  }
  for (uint i = quadEnd + gl_LocalInvocationIndex; i < end; i += 256u) {
    drawPoint(projection, positionAt(i), i, clipTested, filterTests, tested, width, words,
              depthHalves);
  }
}
