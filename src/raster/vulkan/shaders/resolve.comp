#version 460
#extension GL_GOOGLE_include_directive : require
// The compact method's resolve: each pixel's winning point's colour, or the background.
#include "frame_params.glsl"

layout(local_size_x = 16, local_size_y = 16) in;

void main() {
  const uint x = gl_GlobalInvocationID.x, y = gl_GlobalInvocationID.y;
  const uint width = uint(pc.frame.view.width), height = uint(pc.frame.view.height);
  if (x >= width || y >= height) return;
  const uint64_t word = pc.frame.words.at[y * width + x];
  pc.frame.image.at[imageIndex(x, y)] =
      word == kEmptyPixel ? pc.frame.background : colorAt(payloadOfWord(word));
}
