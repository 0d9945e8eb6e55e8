#version 460
#extension GL_GOOGLE_include_directive : require
// Hole filling of the quality pipeline: each pixel's word, or its closest surrounding point's.
#include "quality_resolve.glsl"

layout(local_size_x = 16, local_size_y = 16) in;

void main() {
  const int x = int(gl_GlobalInvocationID.x), y = int(gl_GlobalInvocationID.y);
  if (x >= pc.frame.view.width || y >= pc.frame.view.height) return;
  pc.frame.filled.at[uint(y) * uint(pc.frame.view.width) + uint(x)] = filledWord(x, y);
}
