#version 460
#extension GL_GOOGLE_include_directive : require
// The compact method's cull: each drawn batch's visibility (kBatchOutside, kBatchPartial,
// kBatchInside) into the frame's visibility array, before the raster. Eight invocations a batch,
// one corner of its box each; a batch with no points, one the filter leaves nothing of or one
// the clip region cuts away is outside. The raster's workgroups of batches outside then end
// after reading it, instead of each reading and projecting its batch and waiting at a barrier.
#include "clip_region.glsl"
#include "point_filter.glsl"

layout(local_size_x = 256) in;

shared uint sOutside[256], sInside[256];

void main() {
  const uint b = linearGroupIndex() * 32u + gl_LocalInvocationIndex / 8u;
  const uint corner = gl_LocalInvocationIndex % 8u;
  uint outside = 0x3fu, inside = 0u;
  if (b < pc.frame.batchCount) {
    const uint slot = drawnBatchSlot(b);
    const Batch batch = pc.frame.batches.at[slot];
    const uint filterTests = batchFilterTests(slot);
    if (batch.count != 0u && (filterTests & kFilterDropsAll) == 0u) {
      BatchClip clip;
      if (classifyBatchClip(batch, clip) != kClipNone) {
        const uvec2 c = classifyCorner(makeBatchProjection(pc.frame.view, batch), int(corner), 0.0);
        outside = c.x;
        inside = c.y;
      }
    }
  }
  sOutside[gl_LocalInvocationIndex] = outside;
  sInside[gl_LocalInvocationIndex] = inside;
  barrier();
  if (corner != 0u || b >= pc.frame.batchCount) return;
  uint outsideAll = 0x3fu;
  bool insideAll = true;
  for (uint c = 0u; c < 8u; ++c) {
    outsideAll &= sOutside[gl_LocalInvocationIndex + c];
    insideAll = insideAll && sInside[gl_LocalInvocationIndex + c] != 0u;
  }
  pc.frame.visibility.at[b] = combineCorners(outsideAll, insideAll);
}
