#version 460
#extension GL_GOOGLE_include_directive : require
// The quality pipeline's resolve: background, winning or blended colour, eye-dome lighting.
#include "quality_resolve.glsl"

layout(local_size_x = 16, local_size_y = 16) in;

void main() {
  const uint x = gl_GlobalInvocationID.x, y = gl_GlobalInvocationID.y;
  if (x >= uint(pc.frame.view.width) || y >= uint(pc.frame.view.height)) return;
  pc.frame.image.at[imageIndex(x, y)] = resolveQualityPixel(int(x), int(y));
}
