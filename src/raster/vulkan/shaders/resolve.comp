#version 460
#extension GL_GOOGLE_include_directive : require
// The compact method's resolve: each pixel's winning point's colour, or the background; a pixel
// a point won is cleared for the next frame, so that after the first frame no clear pass runs
// (as the CUDA backend's resolve does).
#include "frame_params.glsl"

layout(local_size_x = 16, local_size_y = 16) in;

void main() {
  const uint x = gl_GlobalInvocationID.x, y = gl_GlobalInvocationID.y;
  const uint width = uint(pc.frame.view.width), height = uint(pc.frame.view.height);
  if (x >= width || y >= height) return;
  const uint pixel = y * width + x;
  const uint64_t word = pc.frame.words.at[pixel];
  if (word == kEmptyPixel) {
    pc.frame.image.at[imageIndex(x, y)] = pc.frame.background;
    return;
  }
  pc.frame.image.at[imageIndex(x, y)] = colorAt(payloadOfWord(word));
  pc.frame.words.at[pixel] = kEmptyPixel;
}
