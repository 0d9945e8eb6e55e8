#version 460
#extension GL_GOOGLE_include_directive : require
// The quality pipeline's point passes, one workgroup per drawn batch: every pixel of each
// point's footprint takes the 64-bit minimum of depth | slot (the depth pass), or, built with
// PCV_ACCUMULATE, adds the point's colour where it lies within the blending depth of the
// pixel's closest point (high quality).
#include "clip_region.glsl"
#include "point_filter.glsl"
#include "quality_resolve.glsl"
#include "splat.glsl"

layout(local_size_x = 256) in;

shared BatchProjection sProjection;
shared BatchClip sClip;
shared uint sDrawn, sFirst, sCount, sFilterTests, sClipTested;

void visitPixel(uint pixel, float depth, uint slot) {
#ifdef PCV_ACCUMULATE
  const uint64_t closest = shadedWordAt(pixel);
  precise float blendDepth = depthOfWord(closest) * pc.frame.shade.hqDepthScale;
  if (closest == kEmptyPixel || !(depth <= blendDepth)) return;
  const uint rgba = colorAt(slot);
  const uint base = pixel * 4u;
  atomicAdd(pc.frame.accumulators.at[base], rgba & 0xffu);
  atomicAdd(pc.frame.accumulators.at[base + 1u], (rgba >> 8) & 0xffu);
  atomicAdd(pc.frame.accumulators.at[base + 2u], (rgba >> 16) & 0xffu);
  atomicAdd(pc.frame.accumulators.at[base + 3u], 1u);
#else
  atomicMin(pc.frame.words.at[pixel], packDepthWord(depth, slot));
#endif
}

void main() {
  const uint b = linearGroupIndex();
  if (b >= pc.frame.batchCount) return;
  const SplatFrame s = pc.frame.splat;
  if (gl_LocalInvocationIndex == 0u) {
    const uint slot = drawnBatchSlot(b);
    const Batch batch = pc.frame.batches.at[slot];
    sFirst = batch.first;
    sCount = batch.count;
    sDrawn = 0u;
    sProjection = makeBatchProjection(pc.frame.view, batch);
    const uint filterTests = batchFilterTests(slot);
    if (batch.count != 0u && !batchOutsideView(sProjection, s.marginPx) &&
        (filterTests & kFilterDropsAll) == 0u) {
      BatchClip clip;
      const uint clipClass = classifyBatchClip(batch, clip);
      sDrawn = clipClass != kClipNone ? 1u : 0u;
      sClip = clip;
      sClipTested = clipClass == kClipTested ? 1u : 0u;
    }
    sFilterTests = filterTests;
  }
  barrier();
  if (sDrawn == 0u) return;
  const BatchProjection projection = sProjection;
  const bool clipTested = sClipTested != 0u;
  const uint filterTests = sFilterTests;
  const int width = s.width, height = s.height;
  const uint end = sFirst + sCount;
  for (uint i = sFirst + gl_LocalInvocationIndex; i < end; i += 256u) {
    const uint word = positionAt(i);
    if (clipTested && !clipKeepsQuantized(sClip, word)) continue;
    if (filterTests != 0u && !filterKeepsSlot(filterTests, i)) continue;
    vec3 screen;
    if (!projectQuantizedToScreen(projection, word, true, true, s.marginPx, screen)) continue;
    const ivec3 f = footprintAt(screen.x, screen.y, splatSizePx(screen.z));
    const int yBegin = max(f.y, 0), yEnd = min(f.y + f.z, height);
    const int xBegin = max(f.x, 0), xEnd = min(f.x + f.z, width);
    for (int y = yBegin; y < yEnd; ++y) {
      for (int x = xBegin; x < xEnd; ++x) {
        if (footprintCovers(uint(f.z), s.round != 0u, x - f.x, y - f.y)) {
          visitPixel(uint(y) * uint(width) + uint(x), screen.z, i);
        }
      }
    }
  }
}
