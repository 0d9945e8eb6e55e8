#version 460
#extension GL_GOOGLE_include_directive : require
// The compact method's raster: kGroupsPerBatch workgroups per drawn batch, each drawing its part
// of the batch's points. Eight invocations cull the batch first, one corner of its box each
// (a single invocation classifying all eight corners kept the other 255 waiting on a long chain
// of float math); the first also tests the batch against the clip region and the filter's
// summary. Then every invocation draws four points at a time: clip and filter tests as the
// batch needs them, the projection, a plain read of each pixel's depth (early-z: most points of
// a dense cloud are hidden, and a read is far cheaper than an atomic), and the 64-bit minimum of
// depth | slot, which keeps the closest point and, on equal depths, the lowest slot.
// Built twice: as it is, and with PCV_PLAIN_POINTS for frames with no clip region and no filter.
#include "clip_region.glsl"
#include "point_filter.glsl"

layout(local_size_x = 256) in;

// Workgroups per batch: two halves of a batch finish the last wave of a frame sooner than one
// workgroup per batch (the CUDA raster measured the same). The host dispatches as many.
const uint kGroupsPerBatch = 2u;

shared BatchProjection sProjection;
shared BatchClip sClip;
shared uvec2 sCorners[8];
shared uint sDrawable, sFirst, sCount, sFilterTests, sClipTested;

layout(buffer_reference, buffer_reference_align = 16, scalar) readonly buffer QuadArray {
  uvec4 at[];
};

// A point's pixel and depth where it is drawn: the clip and filter tests as the batch needs
// them and the projection. `drawn` false: nothing to draw.
struct Projected {
  uint pixel;
  uint depth;
  bool drawn;
};

Projected projectPoint(BatchProjection projection, uint word, uint i, bool clipTested,
                       uint filterTests, bool tested, uint width) {
  Projected p = Projected(0u, 0u, false);
  if (clipTested && !clipKeepsQuantized(sClip, word)) return p;
  if (filterTests != 0u && !filterKeepsSlot(filterTests, i)) return p;
  vec3 screen;
  if (!projectQuantizedToScreen(projection, word, tested, false, 0.0, screen)) return p;
  p.pixel = uint(screen.y) * width + uint(screen.x);
  p.depth = floatBitsToUint(screen.z);
  p.drawn = true;
  return p;
}

// The high half of a pixel's word (little-endian), read only for points drawn.
uint depthAt(Projected p, UintArray depthHalves) {
  return p.drawn ? depthHalves.at[2u * p.pixel + 1u] : 0u;
}

// The 64-bit minimum where the point is nearer than the depth read: a stale read (another point
// of the same four, or of another invocation, nearer meanwhile) costs only an atomic.
void drawNearer(Projected p, uint depthRead, uint i, WordArray words) {
  if (p.drawn && p.depth <= depthRead) {
    atomicMin(words.at[p.pixel], (uint64_t(p.depth) << 32) | uint64_t(i));
  }
}

void main() {
  const uint b = linearGroupIndex() / kGroupsPerBatch;
  const uint part = linearGroupIndex() % kGroupsPerBatch;
  if (b >= pc.frame.batchCount) return;
  const uint corner = gl_LocalInvocationIndex;
  if (corner < 8u) {
    const uint slot = drawnBatchSlot(b);
    const Batch batch = pc.frame.batches.at[slot];
    const BatchProjection projection = makeBatchProjection(pc.frame.view, batch);
    sCorners[corner] = classifyCorner(projection, int(corner), 0.0);
    if (corner == 0u) {
      sFirst = batch.first;
      sCount = batch.count;
      sProjection = projection;
      const uint filterTests = batchFilterTests(slot);
      BatchClip clip;
      const uint clipClass = classifyBatchClip(batch, clip);
      sDrawable = batch.count != 0u && (filterTests & kFilterDropsAll) == 0u &&
                          clipClass != kClipNone
                      ? 1u
                      : 0u;
      sClip = clip;
      sClipTested = clipClass == kClipTested ? 1u : 0u;
      sFilterTests = filterTests;
    }
  }
  barrier();
  if (sDrawable == 0u) return;
  // classifyBatch of the shared header, from the eight corners.
  uint outsideAll = 0x3fu;
  bool insideAll = true;
  for (int k = 0; k < 8; ++k) {
    outsideAll &= sCorners[k].x;
    insideAll = insideAll && sCorners[k].y != 0u;
  }
  if (outsideAll != 0u) return;
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
  const bool tested = !insideAll || clipTested || filterTests != 0u;
  // Everything the loop reads of the frame's parameters is read here, once: they live in a
  // buffer the compiler cannot prove unchanged by the loop's atomics, so inside the loop each
  // use would be a load from memory before the point's own loads.
  const uint width = uint(pc.frame.view.width);
  WordArray words = pc.frame.words;
  UintArray depthHalves = UintArray(pc.frame.words);
  // This workgroup's part of the batch: whole fours, the last part to the batch's end.
  const uint quads = (sCount + 3u) / 4u;
  const uint partQuads = (quads + kGroupsPerBatch - 1u) / kGroupsPerBatch;
  const uint begin = sFirst + min(4u * part * partQuads, sCount);
  const uint end = part + 1u == kGroupsPerBatch ? sFirst + sCount
                                                : sFirst + min(4u * (part + 1u) * partQuads, sCount);
  if (begin >= end) return;
  // A batch lies in one slice of the positions or crosses into the next (a device's slices hold
  // far more points than a batch): the two slices' addresses, the point's chosen by its slice.
  // Slices smaller than a batch (tests make them) take each point's slice from the frame.
  const uint shift = pc.frame.sliceShift;
  const uint firstSlice = begin >> shift;
  const uint lastSlice = (end - 1u) >> shift;
  const uint64_t firstBase = uint64_t(pc.frame.positions[firstSlice]);
  const uint64_t lastBase = uint64_t(pc.frame.positions[lastSlice]);
  const uint inSliceMask = (1u << shift) - 1u;
  const bool inTwoSlices = lastSlice - firstSlice <= 1u;
  // Four points per invocation and iteration, from one 16-byte load (batches start at multiples
  // of four slots, slices are whole multiples of four). The four depths are read before any of
  // the four atomics: a read after an atomic on the same buffer must wait for it, so drawing the
  // points one after the other left one early-z read in flight instead of four.
  const uint quadEnd = begin + ((end - begin) & ~3u);
  for (uint i = begin + 4u * gl_LocalInvocationIndex; i < quadEnd; i += 4u * 256u) {
    uvec4 quad;
    if (inTwoSlices) {
      const uint64_t base = (i >> shift) == firstSlice ? firstBase : lastBase;
      quad = QuadArray(base + 4ul * uint64_t(i & inSliceMask)).at[0];
    } else {
      quad = uvec4(positionAt(i), positionAt(i + 1u), positionAt(i + 2u), positionAt(i + 3u));
    }
    const Projected p0 = projectPoint(projection, quad.x, i, clipTested, filterTests, tested, width);
    const Projected p1 =
        projectPoint(projection, quad.y, i + 1u, clipTested, filterTests, tested, width);
    const Projected p2 =
        projectPoint(projection, quad.z, i + 2u, clipTested, filterTests, tested, width);
    const Projected p3 =
        projectPoint(projection, quad.w, i + 3u, clipTested, filterTests, tested, width);
    const uint d0 = depthAt(p0, depthHalves), d1 = depthAt(p1, depthHalves);
    const uint d2 = depthAt(p2, depthHalves), d3 = depthAt(p3, depthHalves);
    drawNearer(p0, d0, i, words);
    drawNearer(p1, d1, i + 1u, words);
    drawNearer(p2, d2, i + 2u, words);
    drawNearer(p3, d3, i + 3u, words);
  }
  for (uint i = quadEnd + gl_LocalInvocationIndex; i < end; i += 256u) {
    const Projected p = projectPoint(projection, positionAt(i), i, clipTested, filterTests,
                                     tested, width);
    drawNearer(p, depthAt(p, depthHalves), i, words);
  }
}
