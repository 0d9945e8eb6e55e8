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
  const uint width = uint(pc.frame.view.width);
  UintArray depthHalves = UintArray(pc.frame.words);
  const uint end = sFirst + sCount;
  for (uint i = sFirst + gl_LocalInvocationIndex; i < end; i += 256u) {
    const uint word = positionAt(i);
    if (clipTested && !clipKeepsQuantized(sClip, word)) continue;
    if (filterTests != 0u && !filterKeepsSlot(filterTests, i)) continue;
    vec3 screen;
    if (!projectQuantizedToScreen(projection, word, tested, false, 0.0, screen)) continue;
    const uint pixel = uint(screen.y) * width + uint(screen.x);
    const uint depth = floatBitsToUint(screen.z);
    if (depth > depthHalves.at[2u * pixel + 1u]) continue;  // the high half: little-endian
    atomicMin(pc.frame.words.at[pixel], packDepthWord(screen.z, i));
  }
}
